// The appraisal rules on small texts: the appraiser from a heading line or the signature, facts after their
// cues, coefficients as percentages from either form, comparables and other appraisers' figures left out,
// the levy flag, offsets into text with niqqud.
import { describe, expect, it } from 'vitest';
import { daysToIso, extractFacts, findAppraiser } from '../../src/analysis/appraisal.ts';

const facts = (text: string) =>
  extractFacts(text.split('\f')).map((f) => [
    f.kind,
    f.name,
    f.unit === 'date' ? daysToIso(f.value) : f.value,
  ]);

describe('appraisal rules', () => {
  it('names the appraiser from a heading line, else the signature, and the role from the document', () => {
    expect(
      findAppraiser(['חוות דעת שמאית מטעם העוררים\nהשמאית: רונית שחר, שמאית מקרקעין'], 'appraisal'),
    ).toEqual({
      name: 'רונית שחר',
      role: 'appellants',
    });
    expect(
      findAppraiser(
        ['שומה נגדית לבקשת הוועדה המקומית\n1. פרטים.', 'סוף.\nאבי גולן, שמאי מקרקעין'],
        'appraisal',
      ),
    ).toEqual({
      name: 'אבי גולן',
      role: 'committee',
    });
    expect(findAppraiser(['חוות דעת שמאי מייעץ'], 'advisory_appraisal')).toEqual({
      name: null,
      role: 'advisory',
    });
  });

  it('reads each fact after its cue, up to the next cue, in every written form', () => {
    expect(
      facts(
        'המועד הקובע: א\' בניסן התשפ"א. השווי במצב הקודם 1.2 מיליון ש"ח ובמצב החדש ₪1,500,000. ' +
          'שווי ההשבחה 300 אלף ש"ח; היטל ההשבחה 150,000 ש"ח. מקדם דחייה 0.9, מקדם סחירות: 95%. ' +
          'שטח עיקרי של 120 מ"ר ושטחי שירות 0.5 דונם. השווי למ"ר במצב החדש 12,500 ש"ח למ"ר.',
      ),
    ).toEqual([
      ['determining_date', null, '2021-03-14'],
      ['value_prior', null, 120_000_000],
      ['value_new', null, 150_000_000],
      ['betterment', null, 30_000_000],
      ['levy', null, 15_000_000],
      ['coefficient', 'מקדם דחיה', 90],
      ['coefficient', 'מקדם סחירות', 95],
      ['area', 'שטח עיקרי', 120],
      ['area', 'שטחי שירות', 500],
      ['price_per_sqm', 'new', 1_250_000],
    ]);
  });

  it('leaves out comparable sales and other appraisers’ figures, and flags a levy that is not half', () => {
    const text = [
      'שומה מכרעת',
      'המגרש בשטח 500 מ"ר.',
      'עסקאות השוואה',
      'א. רחוב הגפן 5, מגרש 480 מ"ר, 2,000,000 ש"ח.',
      'ב. דירה שנמכרה בסך 1,800,000 ש"ח.',
      'שמאי הוועדה העריך את השווי במצב החדש ב-3,000,000 ש"ח.',
      'לטענת העוררים, שווי ההשבחה הוא 100,000 ש"ח.',
      'השווי במצב החדש הוא 2,600,000 ש"ח.',
      'שווי ההשבחה הוא 600,000 ש"ח, והיטל ההשבחה הוא 310,000 ש"ח.',
    ].join('\n');
    expect(facts(text)).toEqual([
      ['area', 'מגרש', 500],
      ['value_new', null, 260_000_000],
      ['betterment', null, 60_000_000],
      ['levy', null, 31_000_000],
    ]);
    expect(extractFacts([text]).find((f) => f.kind === 'levy')?.note).toBe('levy_not_half');
  });

  it('gives offsets into the page as written, niqqud and all', () => {
    const page = 'הַמּוֹעֵד הַקּוֹבֵעַ הוא 14.3.2021.';
    const [fact] = extractFacts([page]);
    expect(fact).toMatchObject({ kind: 'determining_date' });
    expect(page.slice(fact?.start, fact?.end)).toBe(fact?.text);
    expect(fact?.text.startsWith('הַמּוֹעֵד')).toBe(true);
  });
});
