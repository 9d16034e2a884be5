// The legal thesaurus of the field, as data: groups of terms that mean the same thing in a planning-and-building,
// betterment-levy or compensation text. A query phrase that is one term of a group also finds the others
// (analyzeQuery in normalize.ts), and the answer's query_terms says which of them matched. Terms are written
// as documents write them (quote marks, spelling and prefixes are normalised when the thesaurus is read), so
// adding a line here is the whole change; docs/search.md lists the groups.
//
// Rules for a group: every term means the group's concept on its own (a broader word, such as «תכנית» for
// «תב"ע», is not a synonym); English terms are the ones agents reach for. Proceeding kinds (ע"א, בר"מ…) are
// not here: the legal grammar reads them (src/legal/proceedings.ts).

export interface ThesaurusGroup {
  /** What the group is about (documentation only). */
  concept: string;
  /** Hebrew terms and abbreviations, each a word or a phrase. */
  he: readonly string[];
  /** English equivalents (lower case). */
  en: readonly string[];
}

export const THESAURUS: readonly ThesaurusGroup[] = [
  // Plans
  {
    concept: 'detailed / town building plan',
    he: ['תב"ע', 'תכנית בניין עיר', 'תכנית מפורטת'],
    en: ['zoning plan', 'detailed plan', 'town building plan', 'town plan'],
  },
  { concept: 'plan', he: ['תכנית'], en: ['plan', 'plans', 'planning scheme'] },
  {
    concept: 'outline plan',
    he: ['תכנית מתאר', 'תכנית מתאר מקומית'],
    en: ['outline plan', 'master plan', 'local outline plan'],
  },
  {
    concept: 'national outline plan',
    he: ['תמ"א', 'תכנית מתאר ארצית'],
    en: ['national outline plan', 'national master plan'],
  },
  { concept: 'district outline plan', he: ['תמ"מ', 'תכנית מתאר מחוזית'], en: ['district outline plan'] },
  { concept: 'building permit', he: ['היתר בנייה', 'היתר בניה', 'היתר'], en: ['building permit', 'permit'] },
  { concept: 'relief / deviation', he: ['הקלה', 'הקלות'], en: ['relief', 'deviation', 'variance'] },
  {
    concept: 'substantial deviation',
    he: ['סטייה ניכרת'],
    en: ['substantial deviation', 'significant deviation'],
  },
  { concept: 'non-conforming use', he: ['שימוש חורג'], en: ['non-conforming use', 'nonconforming use'] },
  { concept: 'building line', he: ['קו בניין'], en: ['building line', 'setback'] },
  { concept: 'building rights', he: ['זכויות בנייה'], en: ['building rights'] },
  { concept: 'easement', he: ['זיקת הנאה'], en: ['easement', 'right of way'] },
  {
    concept: 'designation / zoning',
    he: ['ייעוד', 'יעוד קרקע'],
    en: ['designation', 'land use designation'],
  },
  { concept: 'land', he: ['מקרקעין', 'קרקע'], en: ['land', 'real estate', 'real property'] },
  { concept: 'parcel', he: ['חלקה'], en: ['parcel'] },
  { concept: 'block', he: ['גוש'], en: ['block'] },
  { concept: 'lot', he: ['מגרש'], en: ['lot', 'plot'] },
  // Bodies and people
  {
    concept: 'appeals committee',
    he: ['ועדת ערר', 'ועדת הערר'],
    en: ['appeals committee', 'appeal committee', 'appeals board'],
  },
  {
    concept: 'local committee',
    he: ['ועדה מקומית', 'הוועדה המקומית'],
    en: ['local committee', 'local planning committee'],
  },
  {
    concept: 'district committee',
    he: ['ועדה מחוזית', 'הוועדה המחוזית'],
    en: ['district committee', 'district planning committee'],
  },
  {
    concept: 'lawyer',
    he: ['עו"ד', 'עורך דין', 'עורכת דין', 'עורכי דין'],
    en: ['lawyer', 'attorney', 'advocate'],
  },
  { concept: 'chair', he: ['יו"ר', 'יושב ראש', 'יושבת ראש'], en: ['chair', 'chairman', 'chairperson'] },
  { concept: 'appraiser', he: ['שמאי', 'שמאי מקרקעין'], en: ['appraiser', 'valuer'] },
  {
    concept: 'deciding appraiser and the deciding assessment',
    he: ['שמאי מכריע', 'שומה מכרעת'],
    en: ['deciding appraiser', 'decisive appraiser', 'deciding assessment', 'decisive appraisal'],
  },
  {
    concept: 'advisory appraiser',
    he: ['שמאי מייעץ', 'שומה מייעצת'],
    en: ['advisory appraiser', 'consulting appraiser'],
  },
  // Betterment levy
  {
    concept: 'betterment levy',
    he: ['היטל השבחה', 'השבחה'],
    en: ['betterment levy', 'betterment tax', 'betterment', 'improvement levy'],
  },
  {
    concept: 'the Third Schedule',
    he: ['התוספת השלישית', 'תוספת שלישית'],
    en: ['third schedule', 'third addendum'],
  },
  {
    concept: 'determining date',
    he: ['מועד קובע', 'המועד הקובע'],
    en: ['determining date', 'relevant date', 'valuation date'],
  },
  {
    concept: 'realisation event',
    he: ['מימוש זכויות', 'אירוע מס', 'מימוש'],
    en: ['realization', 'realisation', 'realization event', 'realisation event'],
  },
  { concept: 'exemption', he: ['פטור'], en: ['exemption', 'exempt'] },
  {
    concept: 'residential exemption',
    he: ['דירת מגורים מזכה', 'פטור דירת מגורים'],
    en: ['residential exemption', 'qualifying apartment'],
  },
  {
    concept: 'prior planning state',
    he: ['מצב קודם', 'מצב תכנוני קודם'],
    en: ['prior state', 'previous state'],
  },
  { concept: 'new planning state', he: ['מצב חדש', 'מצב תכנוני חדש'], en: ['new state'] },
  { concept: 'assessment', he: ['שומה'], en: ['assessment', 'appraisal', 'valuation'] },
  { concept: 'expert opinion', he: ['חוות דעת', 'חוו"ד'], en: ['expert opinion', 'opinion'] },
  // Appraisal
  {
    concept: 'comparable transactions',
    he: ['עסקאות השוואה', 'עסקאות השוואתיות'],
    en: ['comparable transactions', 'comparables', 'comparable sales'],
  },
  { concept: 'coefficient', he: ['מקדם', 'מקדמים'], en: ['coefficient', 'coefficients', 'factor'] },
  {
    concept: 'marketability coefficient',
    he: ['מקדם סחירות'],
    en: ['marketability coefficient', 'marketability factor', 'marketability discount'],
  },
  { concept: 'deferral coefficient', he: ['מקדם דחייה'], en: ['deferral coefficient', 'deferral factor'] },
  { concept: 'size coefficient', he: ['מקדם גודל'], en: ['size coefficient', 'size factor'] },
  {
    concept: 'value per square metre',
    he: ['שווי למ"ר'],
    en: ['value per square meter', 'value per square metre', 'price per square meter'],
  },
  { concept: 'square metre', he: ['מ"ר', 'מטר רבוע'], en: ['square meter', 'square metre', 'sqm'] },
  { concept: 'main area', he: ['שטח עיקרי', 'שטחים עיקריים'], en: ['main area', 'primary area'] },
  { concept: 'service areas', he: ['שטחי שירות', 'שטח שירות'], en: ['service area', 'service areas'] },
  // Compensation
  {
    concept: 'compensation claim',
    he: ['תביעת פיצויים', 'תביעה לפיצויים', 'פיצויים', 'פיצוי'],
    en: ['compensation', 'compensation claim', 'injurious affection'],
  },
  {
    concept: 'injury to land',
    he: ['פגיעה במקרקעין', 'ירידת ערך'],
    en: ['injury to land', 'depreciation', 'loss of value'],
  },
  { concept: 'expropriation', he: ['הפקעה'], en: ['expropriation', 'compulsory acquisition'] },
  // Proceedings and decisions
  { concept: 'appeal', he: ['ערר'], en: ['appeal'] },
  { concept: 'appellant', he: ['עורר', 'העוררים', 'העוררת'], en: ['appellant', 'appellants'] },
  { concept: 'respondent', he: ['משיבה', 'המשיבים', 'המשיב'], en: ['respondent', 'respondents'] },
  { concept: 'costs', he: ['הוצאות'], en: ['costs', 'legal costs'] },
  { concept: 'limitation', he: ['התיישנות'], en: ['limitation', 'statute of limitations', 'time bar'] },
  { concept: 'extension of time', he: ['הארכת מועד'], en: ['extension of time', 'extension'] },
  { concept: 'section', he: ['סעיף', "ס'", "סע'"], en: ['section'] },
  { concept: 'regulation', he: ['תקנה', 'תקנות'], en: ['regulation', 'regulations'] },
  {
    concept: 'the Planning and Building Law',
    he: ['חוק התכנון והבנייה'],
    en: ['planning and building law', 'planning law'],
  },
  {
    concept: 'High Court of Justice',
    he: ['בג"ץ', 'בית המשפט הגבוה לצדק'],
    en: ['high court of justice', 'high court'],
  },
  { concept: 'Supreme Court', he: ['בית המשפט העליון', 'העליון'], en: ['supreme court'] },
];
