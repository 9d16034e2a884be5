import { describe, expect, it } from 'vitest';
import { isGarbageText } from '../../../src/documents/ocr/garbage.ts';
import { lineInReadingOrder, normaliseOcrText } from '../../../src/documents/ocr/normalise.ts';

describe('normaliseOcrText', () => {
  it('drops niqqud and cantillation, keeps maqaf and sof pasuq', () => {
    expect(normaliseOcrText('שַׁמַּאי מַכְרִיעַ')).toBe('שמאי מכריע');
    expect(normaliseOcrText('בֵּית־הַדִּין׃')).toBe('בית־הדין׃');
  });

  it('decomposes presentation forms to plain letters', () => {
    expect(normaliseOcrText('\ufb2aלום')).toBe('שלום');
    expect(normaliseOcrText('\ufb4bהל')).toBe('והל');
  });

  it('gives a word-final letter its final form, not a one-letter word or an abbreviation', () => {
    expect(normaliseOcrText('שלומ מקרקעינ')).toBe('שלום מקרקעין');
    expect(normaliseOcrText('ארצ, כספ.')).toBe('ארץ, כסף.');
    expect(normaliseOcrText('מ"ר מ\' כ 5')).toBe('מ"ר מ\' כ 5');
    expect(normaliseOcrText('מכמנ')).toBe('מכמן');
  });

  it('keeps «גוש 6638 חלקה 12», dates and amounts whole, in reading order', () => {
    expect(normaliseOcrText('\u200fגוש 6638 חלקה 12\u200e, ביום 12.1.2026: 6,100,000 ₪')).toBe(
      'גוש 6638 חלקה 12, ביום 12.1.2026: 6,100,000 ₪',
    );
  });

  it('types quote marks and dashes as a keyboard does', () => {
    expect(normaliseOcrText('מ״ר ג׳ “תכנית” – סעיף')).toBe('מ"ר ג\' "תכנית" - סעיף');
  });

  it('tidies whitespace: single spaces, no trailing spaces, at most one blank line', () => {
    expect(normaliseOcrText('  א  \t ב \n\n\n\n ג  ')).toBe('א ב\n\nג');
  });
});

describe('isGarbageText', () => {
  it('passes Hebrew, English and mixed text with numbers', () => {
    expect(isGarbageText('המועד הקובע לחישוב ההשבחה הוא 14.3.2021, גוש 6638 חלקה 12.')).toBe(false);
    expect(isGarbageText('The appraiser valued the plot at 6,100,000 NIS on 12.1.2026.')).toBe(false);
    expect(isGarbageText('לפי תכנית TA/5000 ומסמך GIS של העירייה, השטח הוא 620 מ"ר.')).toBe(false);
    expect(isGarbageText('')).toBe(false);
  });

  it('catches replacement characters and private-use glyphs', () => {
    expect(isGarbageText('\ufffd\ufffd\ufffd \ufffd\ufffd גוש')).toBe(true);
    expect(isGarbageText('\ue001\ue002\ue003 \ue004\ue005\ue006 \ue007\ue008')).toBe(true);
  });

  it('catches Hebrew glyphs mapped to Latin-1 letters', () => {
    expect(isGarbageText('äîåòã ä÷åáò ìçéùåá ääùáçä äåà éåí úçéìúä ùì äúëðéú')).toBe(true);
  });

  it('catches vowel-less Latin strings and words mixing scripts', () => {
    expect(isGarbageText('xqzt bcdfg hjklm npqrs tvwxz gh dfgh trpl')).toBe(true);
    expect(isGarbageText('גxש חלqה רחb הנרקyסים נoסף שמaי')).toBe(true);
  });
});

describe('lineInReadingOrder', () => {
  it('puts back a Hebrew line Tesseract gave in visual order', () => {
    expect(lineInReadingOrder('.3.6.2024 המגרש בשטח 620 מ"ר והמועד הקובע הוא')).toBe(
      'המגרש בשטח 620 מ"ר והמועד הקובע הוא 3.6.2024.',
    );
    expect(lineInReadingOrder('₪ 6,100,000 שווי במצב קודם:')).toBe('שווי במצב קודם: 6,100,000 ₪');
  });

  it('leaves a line already in reading order, and moves a Latin line’s leading full stop to its end', () => {
    expect(lineInReadingOrder('הנכס: גוש 6638 חלקה 12, רחוב הנרקיסים 7.')).toBe(
      'הנכס: גוש 6638 חלקה 12, רחוב הנרקיסים 7.',
    );
    expect(lineInReadingOrder('.The plot area is 620 square meters, plan TA/5000')).toBe(
      'The plot area is 620 square meters, plan TA/5000.',
    );
    expect(lineInReadingOrder('Plan TA/5000 applies')).toBe('Plan TA/5000 applies');
    expect(lineInReadingOrder('1. מיניתי שמאי מכריע לפי סעיף 14')).toBe('1. מיניתי שמאי מכריע לפי סעיף 14');
    expect(lineInReadingOrder('620 מ"ר הוא שטח המגרש')).toBe('620 מ"ר הוא שטח המגרש');
  });
});
