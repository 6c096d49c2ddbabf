// Group-mention recogniser: finds where a text talks about a demographic group, which axis (taxonomy key)
// and which group (canonical key, used to compare groups on one axis). Terms come from the HolisticBias
// descriptor list (CC BY-SA 4.0, lexicons/holistic-bias-descriptors.json) plus a curated list of group nouns.
// A mention alone is never a finding: detectors need an attribution pattern around it.
import holistic from './lexicons/holistic-bias-descriptors.json';
import { anyOf, matchesOf, testAny } from './text';

export type Axis = 'gender' | 'race_ethnicity' | 'religion' | 'age' | 'disability' | 'nationality' | 'socioeconomic' | 'sexual_orientation' | 'appearance';

export interface GroupMention {
  start: number;
  end: number;
  text: string;
  axis: Axis;
  /** Canonical group, e.g. "gender:female", "age:older". */
  group: string;
  /** Preceded by a determiner that makes it specific ("these women", "three applicants"), not a generalisation. */
  specific: boolean;
  /** Preceded by a universal quantifier ("all", "most", "every", "typical"). */
  quantified: boolean;
}

interface TermInfo {
  axis: Axis;
  group: string;
  /** A descriptor ("older", "Asian") needs a person noun after it to name a group. */
  needsNoun: boolean;
}

const norm = (s: string) => s.toLowerCase().replace(/[’]/g, "'").replace(/[-_/]+/g, ' ').replace(/\s+/g, ' ').trim();

const HB_AXIS: Record<string, Axis | undefined> = {
  ability: 'disability',
  age: 'age',
  body_type: 'appearance',
  gender_and_sex: 'gender',
  race_ethnicity: 'race_ethnicity',
  religion: 'religion',
  nationality: 'nationality',
  socioeconomic_class: 'socioeconomic',
  sexual_orientation: 'sexual_orientation',
};

// Descriptors too ambiguous to name a group even before a person noun ("strong candidates", "senior engineers").
const HB_SKIP = new Set(
  [
    'slow', 'dumb', 'mature', 'adult', 'young at heart', 'spry', 'senior', 'professional', 'active', 'inactive', 'available', 'employed', 'fit',
    'strong', 'big', 'bigger', 'large', 'larger', 'huge', 'giant', 'massive', 'small', 'smaller', 'tiny', 'hot', 'heavy', 'cute', 'adorable',
    'in shape', 'toned', 'country', 'elite', 'entitled', 'privileged', 'native', 'american', 'spiritual', 'secular', 'straight',
    'pan', 'bi', 'ace', 'poly', 'stud', 'latin', 'single', 'married', 'engaged', 'separated', 'partnered', 'adopted', 'literate', 'athletic',
    'well groomed', 'average height', 'medium height', 'medium stature', 'physically fit', 'well built', 'muscular', 'ripped', 'swole',
  ].map(norm),
);
const HB_BUCKET_SKIP = new Set(['hair', 'eye_color', 'fit', 'medium_stature', 'handedness', 'job_status', 'marital_status', 'miscellaneous', 'addictions', 'political_ideologies']);

const TERMS = new Map<string, TermInfo>();
const add = (term: string, info: TermInfo) => {
  const k = norm(term);
  if (k && !TERMS.has(k)) TERMS.set(k, info);
};

// Canonical groups for axes where comparing two groups matters most (sentiment disparity).
const GENDER_FEMALE = ['woman', 'women', 'female', 'females', 'girl', 'girls', 'lady', 'ladies', 'mother', 'mothers', 'mom', 'moms', 'mum', 'mums', 'wife', 'wives', 'daughter', 'daughters', 'sister', 'sisters', 'housewife', 'housewives', 'feminine', 'womanly', 'gal', 'gals', 'working mothers', 'working moms', 'new mothers', 'single mothers', 'single moms', 'businesswomen', 'businesswoman'];
const GENDER_MALE = ['man', 'men', 'male', 'males', 'boy', 'boys', 'guy', 'gentleman', 'gentlemen', 'father', 'fathers', 'dad', 'dads', 'husband', 'husbands', 'son', 'sons', 'brother', 'brothers', 'masculine', 'manly', 'businessmen', 'businessman'];
const NEEDS_NOUN_GENDER = new Set(['female', 'male', 'feminine', 'masculine', 'womanly', 'manly']);
for (const t of GENDER_FEMALE) add(t, { axis: 'gender', group: 'gender:female', needsNoun: NEEDS_NOUN_GENDER.has(t) });
for (const t of GENDER_MALE) add(t, { axis: 'gender', group: 'gender:male', needsNoun: NEEDS_NOUN_GENDER.has(t) });

const STANDALONE: [Axis, string, string[]][] = [
  ['gender', 'gender:trans', ['trans people', 'transgender people', 'trans women', 'trans men', 'nonbinary people', 'non binary people']],
  ['age', 'age:older', ['seniors', 'senior citizens', 'boomer', 'the elderly', 'elderly', 'pensioners', 'retirees', 'boomers', 'baby boomers', 'older people', 'old people', 'the old', 'over 50s', 'over 40s', 'over 60s', 'older generation', 'older generations', 'gen x', 'gen xers', 'oaps', 'elders']],
  ['age', 'age:younger', ['millennials', 'gen z', 'gen zers', 'zoomers', 'gen z employees', 'the young', 'youngsters', 'young people', 'teenagers', 'teens', 'youth', 'young generation', 'younger generation', 'kids these days', 'under 30s', 'graduates']],
  ['race_ethnicity', 'race:minority', ['minorities', 'ethnic minorities', 'people of color', 'people of colour', 'poc', 'bipoc', 'racial minorities', 'visible minorities']],
  ['race_ethnicity', 'race:black', ['blacks', 'african americans', 'black people', 'black men', 'black women']],
  ['race_ethnicity', 'race:white', ['whites', 'caucasians', 'white people', 'white men', 'white women']],
  ['race_ethnicity', 'race:asian', ['asians', 'asian americans', 'east asians', 'south asians', 'orientals']],
  ['race_ethnicity', 'race:hispanic', ['hispanics', 'latinos', 'latinas', 'latinx', 'latines', 'chicanos']],
  ['race_ethnicity', 'race:arab', ['arabs', 'middle easterners']],
  ['race_ethnicity', 'race:indigenous', ['native americans', 'aboriginals', 'aborigines', 'indigenous people', 'indigenous peoples', 'first nations']],
  ['race_ethnicity', 'race:roma', ['gypsies', 'roma', 'travellers', 'travelers']],
  ['religion', 'religion:muslim', ['muslims', 'moslems']],
  ['religion', 'religion:christian', ['christians', 'catholics', 'protestants', 'evangelicals', 'mormons', 'baptists']],
  ['religion', 'religion:jewish', ['jews']],
  ['religion', 'religion:hindu', ['hindus']],
  ['religion', 'religion:buddhist', ['buddhists']],
  ['religion', 'religion:sikh', ['sikhs']],
  ['religion', 'religion:atheist', ['atheists', 'non believers', 'nonbelievers']],
  ['nationality', 'nationality:immigrant', ['immigrants', 'migrants', 'refugees', 'asylum seekers', 'foreigners', 'expats', 'non natives', 'non native speakers', 'nonnative speakers', 'foreign nationals', 'newcomers', 'recent arrivals', 'new arrivals', 'illegals', 'illegal immigrants', 'illegal aliens', 'aliens', 'undocumented immigrants']],
  ['disability', 'disability:any', ['the disabled', 'disabled', 'people with disabilities', 'persons with disabilities', 'wheelchair users', 'wheelchair user', 'the blind', 'the deaf', 'the handicapped', 'handicapped', 'the mentally ill', 'mentally ill', 'the sick', 'amputees', 'autistics']],
  ['socioeconomic', 'ses:poor', ['the poor', 'poor people', 'welfare recipients', 'benefit recipients', 'benefits recipients', 'people on welfare', 'people on benefits', 'welfare claimants', 'medicaid patients', 'medicaid recipients', 'food stamp recipients', 'voucher holders', 'benefit claimants', 'the homeless', 'homeless people', 'rough sleepers', 'the unemployed', 'unemployed people', 'low earners', 'working class', 'blue collar workers', 'the underclass', 'trailer trash', 'welfare queens']],
  ['socioeconomic', 'ses:rich', ['the rich', 'rich people', 'the wealthy', 'wealthy people', 'millionaires', 'billionaires', 'the elite', 'elites']],
  ['sexual_orientation', 'orientation:lgbtq', ['gays', 'lesbians', 'homosexuals', 'bisexuals', 'queers', 'gay people', 'gay men', 'gay couples', 'same sex couples', 'lgbt people', 'lgbtq people', 'lgbtq+ people', 'same sex parents', 'same sex families', 'gay parents', 'two mums', 'two moms', 'two dads', 'queer people', 'gay and lesbian', 'lgbtq', 'lgbt']],
  ['appearance', 'appearance:overweight', ['fat people', 'overweight people', 'obese people', 'the obese']],
];
for (const [axis, group, terms] of STANDALONE) for (const t of terms) add(t, { axis, group, needsNoun: false });

// Nationalities / demonyms (plural stands alone; adjective needs a noun).
const DEMONYMS: [string, string][] = [
  ['Indian', 'Indians'], ['Chinese', ''], ['Mexican', 'Mexicans'], ['Nigerian', 'Nigerians'], ['Pakistani', 'Pakistanis'], ['Bangladeshi', 'Bangladeshis'],
  ['Filipino', 'Filipinos'], ['Vietnamese', ''], ['Korean', 'Koreans'], ['Japanese', ''], ['Brazilian', 'Brazilians'], ['Polish', 'Poles'], ['Romanian', 'Romanians'],
  ['Russian', 'Russians'], ['Ukrainian', 'Ukrainians'], ['German', 'Germans'], ['French', 'Frenchmen'], ['Italian', 'Italians'], ['Irish', ''], ['Scottish', 'Scots'],
  ['British', 'Brits'], ['English', ''], ['American', 'Americans'], ['Canadian', 'Canadians'], ['Australian', 'Australians'], ['Turkish', 'Turks'], ['Iranian', 'Iranians'],
  ['Iraqi', 'Iraqis'], ['Syrian', 'Syrians'], ['Afghan', 'Afghans'], ['Somali', 'Somalis'], ['Ethiopian', 'Ethiopians'], ['Kenyan', 'Kenyans'], ['Ghanaian', 'Ghanaians'],
  ['Egyptian', 'Egyptians'], ['Moroccan', 'Moroccans'], ['Colombian', 'Colombians'], ['Venezuelan', 'Venezuelans'], ['Cuban', 'Cubans'], ['Haitian', 'Haitians'],
  ['Puerto Rican', 'Puerto Ricans'], ['Dominican', 'Dominicans'], ['Jamaican', 'Jamaicans'], ['Greek', 'Greeks'], ['Spanish', 'Spaniards'], ['Portuguese', ''],
  ['Dutch', ''], ['Swedish', 'Swedes'], ['Eastern European', 'Eastern Europeans'], ['Southern European', 'Southern Europeans'], ['Latin American', 'Latin Americans'],
  ['Middle Eastern', ''], ['African', 'Africans'], ['European', 'Europeans'], ['Asian', 'Asians'], ['Thai', ''], ['Indonesian', 'Indonesians'], ['Malaysian', 'Malaysians'],
  ['Israeli', 'Israelis'], ['Palestinian', 'Palestinians'], ['Arab', 'Arabs'], ['Albanian', 'Albanians'], ['Bulgarian', 'Bulgarians'], ['Sri Lankan', 'Sri Lankans'],
  ['Nepali', 'Nepalis'], ['Taiwanese', ''], ['South African', 'South Africans'], ['Argentinian', 'Argentinians'], ['Peruvian', 'Peruvians'], ['Chilean', 'Chileans'],
  // beyond the first list: the places a multinational's assistant is used in (first reads of sets 15, 17 and 18 were weakest there)
  ['Emirati', 'Emiratis'], ['Saudi', 'Saudis'], ['Qatari', 'Qataris'], ['Kuwaiti', 'Kuwaitis'], ['Omani', 'Omanis'], ['Yemeni', 'Yemenis'], ['Lebanese', ''],
  ['Jordanian', 'Jordanians'], ['Algerian', 'Algerians'], ['Tunisian', 'Tunisians'], ['Libyan', 'Libyans'], ['Sudanese', ''], ['Eritrean', 'Eritreans'],
  ['Ugandan', 'Ugandans'], ['Tanzanian', 'Tanzanians'], ['Rwandan', 'Rwandans'], ['Congolese', ''], ['Cameroonian', 'Cameroonians'], ['Senegalese', ''],
  ['Ivorian', 'Ivorians'], ['Zimbabwean', 'Zimbabweans'], ['Zambian', 'Zambians'], ['Malawian', 'Malawians'], ['Mozambican', 'Mozambicans'], ['Angolan', 'Angolans'],
  ['Singaporean', 'Singaporeans'], ['Burmese', ''], ['Cambodian', 'Cambodians'], ['Mongolian', 'Mongolians'], ['Kazakh', 'Kazakhs'], ['Uzbek', 'Uzbeks'],
  ['Czech', 'Czechs'], ['Slovak', 'Slovaks'], ['Hungarian', 'Hungarians'], ['Serbian', 'Serbs'], ['Croatian', 'Croats'], ['Bosnian', 'Bosnians'],
  ['Lithuanian', 'Lithuanians'], ['Latvian', 'Latvians'], ['Estonian', 'Estonians'], ['Belgian', 'Belgians'], ['Swiss', ''], ['Austrian', 'Austrians'],
  ['Danish', 'Danes'], ['Norwegian', 'Norwegians'], ['Finnish', 'Finns'], ['New Zealander', 'New Zealanders'], ['Kiwi', 'Kiwis'],
  ['Guatemalan', 'Guatemalans'], ['Salvadoran', 'Salvadorans'], ['Honduran', 'Hondurans'], ['Nicaraguan', 'Nicaraguans'], ['Ecuadorian', 'Ecuadorians'],
  ['Bolivian', 'Bolivians'], ['Paraguayan', 'Paraguayans'], ['Uruguayan', 'Uruguayans'], ['Fijian', 'Fijians'], ['Samoan', 'Samoans'], ['Tongan', 'Tongans'],
  ['Mainland Chinese', ''], ['Hong Konger', 'Hong Kongers'], ['Gulf Arab', 'Gulf Arabs'], ['North African', 'North Africans'], ['West African', 'West Africans'],
  ['East African', 'East Africans'], ['Southeast Asian', 'Southeast Asians'], ['Central Asian', 'Central Asians'], ['Caribbean', ''],
];
// Ethnic groups within a country (an adjective needs a person noun; plurals stand alone). Assumptions about them
// are as common in local deployments as assumptions about nationality.
const ETHNIC_GROUPS: [string, string][] = [
  ['Igbo', ''], ['Yoruba', ''], ['Hausa', ''], ['Fulani', ''], ['Zulu', 'Zulus'], ['Xhosa', ''], ['Afrikaner', 'Afrikaners'], ['Coloured', ''],
  ['Kikuyu', ''], ['Luo', ''], ['Maasai', ''], ['Somali Bantu', ''], ['Amhara', ''], ['Oromo', ''], ['Tigrayan', 'Tigrayans'], ['Berber', 'Berbers'],
  ['Amazigh', ''], ['Kurdish', 'Kurds'], ['Pashtun', 'Pashtuns'], ['Baloch', ''], ['Tamil', 'Tamils'], ['Telugu', ''], ['Bengali', 'Bengalis'],
  ['Punjabi', 'Punjabis'], ['Gujarati', 'Gujaratis'], ['Marathi', ''], ['Malayali', 'Malayalis'], ['Kashmiri', 'Kashmiris'], ['Sindhi', 'Sindhis'],
  ['Malay', 'Malays'], ['Javanese', ''], ['Han Chinese', ''], ['Uyghur', 'Uyghurs'], ['Tibetan', 'Tibetans'], ['Hmong', ''], ['Maori', 'Maori'], ['Māori', ''],
  ['Pacific Islander', 'Pacific Islanders'], ['Torres Strait Islander', 'Torres Strait Islanders'], ['Aboriginal', ''], ['Inuit', 'Inuit'], ['Métis', ''],
  ['Quechua', ''], ['Aymara', ''], ['Mestizo', 'Mestizos'], ['Afro Brazilian', 'Afro Brazilians'], ['Afro Caribbean', 'Afro Caribbeans'], ['Afro Latino', 'Afro Latinos'],
  ['Dalit', 'Dalits'], ['Adivasi', 'Adivasis'], ['Brahmin', 'Brahmins'], ['Bedouin', 'Bedouins'], ['Druze', ''], ['Roma', ''], ['Sinti', ''], ['Sami', ''],
];
for (const [adj, plural] of ETHNIC_GROUPS) {
  const g = `race:${norm(adj).replace(/ /g, '_')}`;
  add(adj, { axis: 'race_ethnicity', group: g, needsNoun: true });
  if (plural) add(plural, { axis: 'race_ethnicity', group: g, needsNoun: false });
}
export const COUNTRIES = [
  'India', 'China', 'Mexico', 'Nigeria', 'Pakistan', 'Bangladesh', 'the Philippines', 'Philippines', 'Vietnam', 'Korea', 'Japan', 'Brazil', 'Poland', 'Romania', 'Russia',
  'Ukraine', 'Germany', 'France', 'Italy', 'Ireland', 'Turkey', 'Iran', 'Iraq', 'Syria', 'Afghanistan', 'Somalia', 'Ethiopia', 'Kenya', 'Ghana', 'Egypt', 'Morocco',
  'Colombia', 'Venezuela', 'Cuba', 'Haiti', 'Jamaica', 'Greece', 'Spain', 'Portugal', 'Eastern Europe', 'Africa', 'Asia', 'Latin America', 'the Middle East',
  'Middle East', 'South America', 'Central America', 'Thailand', 'Indonesia', 'Malaysia', 'Sri Lanka', 'Nepal', 'Taiwan', 'Albania', 'Bulgaria', 'the Global South',
  'Saudi Arabia', 'the UAE', 'UAE', 'Qatar', 'Lebanon', 'Jordan', 'Algeria', 'Tunisia', 'Sudan', 'Eritrea', 'Uganda', 'Tanzania', 'Rwanda', 'Congo', 'the DRC',
  'Cameroon', 'Senegal', 'Zimbabwe', 'Zambia', 'Malawi', 'Mozambique', 'Angola', 'South Africa', 'Myanmar', 'Cambodia', 'Kazakhstan', 'Uzbekistan', 'Serbia',
  'Hungary', 'Lithuania', 'Latvia', 'the Balkans', 'Balkans', 'Guatemala', 'El Salvador', 'Honduras', 'Nicaragua', 'Ecuador', 'Bolivia', 'Peru', 'Argentina',
  'West Africa', 'East Africa', 'North Africa', 'Southeast Asia', 'South Asia', 'Central Asia', 'the Caribbean', 'Caribbean', 'Sub-Saharan Africa', 'the Gulf',
];
for (const [adj, plural] of DEMONYMS) {
  const g = `nationality:${norm(adj).replace(/ /g, '_')}`;
  add(adj, { axis: 'nationality', group: g, needsNoun: true });
  if (plural) add(plural, { axis: 'nationality', group: g, needsNoun: false });
}

// HolisticBias descriptors (adjectives): need a person noun after them.
interface HbRow { term: string; kind: string; axis: string; bucket: string | null }
for (const row of (holistic as { descriptors: HbRow[] }).descriptors) {
  if (row.kind !== 'descriptor') continue;
  let axis = HB_AXIS[row.axis];
  if (row.axis === 'cultural') axis = row.bucket === 'generations' ? 'age' : ['urban', 'rural', 'underprivileged', 'underserved', 'marginalized', 'at-risk', 'redneck', 'hillbilly'].includes(row.term) ? 'socioeconomic' : undefined;
  if (row.axis === 'characteristics') axis = row.bucket === 'immigration_status' ? 'nationality' : ['pregnant'].includes(row.term) ? 'gender' : ['homeless', 'houseless', 'unhoused'].includes(row.term) ? 'socioeconomic' : undefined;
  if (!axis || HB_SKIP.has(norm(row.term)) || (row.bucket && HB_BUCKET_SKIP.has(row.bucket) && row.axis !== 'characteristics')) continue;
  const t = norm(row.term);
  let group = `${axis}:${t.replace(/ /g, '_')}`;
  if (axis === 'age') group = /young|teen|twenty|20|25|thirty|30|35|adolescent|millennial|gen z|zoomer/.test(t) ? 'age:younger' : 'age:older';
  if (axis === 'gender' && t === 'pregnant') group = 'gender:female';
  add(t, { axis, group, needsNoun: true });
  // Capitalised nominal descriptors form plurals that stand alone ("Muslims", "Latinas").
  if (/^[A-Z]/.test(row.term) && /(?:an|ist|ic|o|a|u|i|h|e)$/.test(row.term) && !/(?:ese|ish)$/.test(row.term)) add(`${t}s`, { axis, group, needsNoun: false });
}
for (const t of ['young', 'younger', 'older', 'old', 'elderly', 'aging', 'ageing', 'retired', 'middle aged']) add(t, { axis: 'age', group: /young/.test(t) ? 'age:younger' : 'age:older', needsNoun: true });
for (const t of ['disabled', 'autistic', 'blind', 'deaf', 'neurodivergent', 'dyslexic', 'handicapped', 'wheelchair bound', 'mentally ill']) add(t, { axis: 'disability', group: 'disability:any', needsNoun: true });
for (const t of ['benefit', 'benefits', 'poor', 'low income', 'working class', 'inner city', 'urban', 'welfare', 'uneducated', 'non graduate', 'first generation', 'underprivileged', 'rich', 'wealthy', 'affluent']) add(t, { axis: 'socioeconomic', group: /rich|wealthy|affluent/.test(t) ? 'ses:rich' : 'ses:poor', needsNoun: true });
for (const t of ['minority', 'ethnic', 'immigrant', 'foreign', 'foreign born', 'non native', 'overseas', 'offshore', 'migrant']) add(t, { axis: t === 'minority' || t === 'ethnic' ? 'race_ethnicity' : 'nationality', group: t === 'minority' || t === 'ethnic' ? 'race:minority' : 'nationality:immigrant', needsNoun: true });
add('religious', { axis: 'religion', group: 'religion:religious', needsNoun: true });
for (const t of ['gay', 'lesbian', 'bisexual', 'queer', 'homosexual', 'lgbt', 'lgbtq']) add(t, { axis: 'sexual_orientation', group: 'orientation:lgbtq', needsNoun: true });
for (const t of ['overweight', 'obese', 'fat', 'unattractive', 'ugly', 'attractive', 'good looking', 'plainer', 'plus size', 'tattooed']) add(t, { axis: 'appearance', group: /overweight|obese|fat/.test(t) ? 'appearance:overweight' : 'appearance:looks', needsNoun: true });

/** Nouns that turn a descriptor into a group ("older" + "workers"). */
export const PERSON_NOUNS = new Set(
  (
    'people person persons individuals folks folk workers worker employees employee staff staffers candidates candidate applicants applicant hires hire recruits ' +
    'students student customers customer clients client consumers shoppers buyers users patients patient borrowers borrower tenants tenant renters residents ' +
    'homeowners families family households parents children kids men man women woman guys girls boys ladies adults drivers engineers developers nurses ' +
    'doctors managers leaders executives founders entrepreneurs owners members colleagues coworkers teammates volunteers communities community neighbours ' +
    'neighbors immigrants speakers jobseekers seekers professionals talent vendors suppliers contractors businesses firms policyholders claimants ' +
    'travellers travelers passengers voters citizens youth teens teenagers mothers fathers moms dads wives husbands veterans seniors retirees learners ' +
    'pupils athletes programmers salespeople agents officers teachers labourers laborers staff hiring graduates nationals americans couples drivers ' +
    'manager engineer developer nurse doctor driver teacher supervisor agent officer director executive lead analyst consultant representative rep assistant receptionist cashier technician mechanic programmer designer salesperson ' +
    'manufacturers producers makers exporters factories companies landlords farmers traders merchants brokers builders tradespeople labor labour workforce national nationals migrants expats ' +
    'authors writers artists creators influencers neighbourhoods neighborhoods areas applicants trainees interns caregivers physicians lawyers analysts mechanics accountants leads reps representatives recipients consultants shoppers guests callers readers viewers audiences buyers sellers investors'
  ).split(/\s+/),
);
// Words allowed between a descriptor and its noun ("older female job candidates").
const FILLERS = new Set(['job', 'new', 'prospective', 'potential', 'qualified', 'local', 'young', 'male', 'female', 'loan', 'mortgage', 'rental', 'senior', 'junior', 'entry', 'level', 'first', 'time', 'low', 'high', 'income', 'owned', 'led', 'speaking', 'born', 'team', 'career', 'working', 'insurance', 'account', 'sales', 'support', 'project', 'product', 'software', 'trained', 'educated', 'raised', 'background', 'origin', 'heritage', 'descent']);

const SPECIFIC_DET = /\b(?:these|those|this|that|our|my|your|his|her|their|its|two|three|four|five|six|seven|eight|nine|ten|several|some|a few|few|both|each|one|certain|particular|specific|\d+)\s+(?:\w+\s+){0,2}$/i;
const QUANT = /\b(?:all|most|every|typical(?:ly)?|any|almost all|virtually all|nearly all|like most|like all|as a rule|by nature|as a group)\s+(?:\w+\s+){0,2}$/i;

const WORD = /[A-Za-z][A-Za-z'’]*|\d+/g;
const MAX_TERM_WORDS = 4;
/** First words of every term: a token that starts no term is skipped without building phrases. */
const FIRST_WORDS = new Set([...TERMS.keys()].map((k) => k.split(' ')[0]!));

interface Tok {
  w: string;
  start: number;
  end: number;
}

function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(s); m !== null; m = WORD.exec(s)) {
    let w = m[0].toLowerCase();
    // most words hold no curly apostrophe: skip the replace call for them
    if (w.includes('’')) w = w.replaceAll('’', "'");
    if (w.endsWith("'s")) w = w.slice(0, -2);
    else if (w.endsWith("'")) w = w.slice(0, -1);
    out.push({ w, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

const AGE_NUMERIC = /\b(?:(?:an?\s+)?(\d{2})[- ]year[- ]olds?\b|(?:people|persons|candidates|applicants|workers|employees|staff|anyone|those|individuals|customers|clients|patients|claimants|policyholders|tenants|residents|students|learners|users|members|drivers|borrowers|hires)\s+(?:aged\s+)?(?:over|above|under|below|older than|younger than|past)\s+(?:the age of\s+)?(\d{2})|over[- ](\d{2})s|under[- ](\d{2})s|in (?:their|his|her) (?:(?:late|early|mid)\s+)?(?:(\d0)s|twenties|thirties|forties|fifties|sixties|seventies))\b/gi;
const FROM_PLACE = new RegExp(
  String.raw`\b(?:suppliers?|vendors?|manufacturers?|factories|firms|companies|applicants?|candidates?|workers?|people|developers?|engineers?|teams?|contractors?|staff|immigrants?|borrowers?|tenants?|customers?|families|students?)\s+(?:from|in|based in|out of)\s+(?:${COUNTRIES.map((c) => c.replace(/ /g, '\\s+')).join('|')})\b`,
  'gi',
);
const WITH_CONDITION = /\b(?:people|persons|individuals|patients|employees|workers|students|pupils|learners|children|kids|adults|applicants|candidates|customers|clients|claimants|policyholders|members|users|tenants|residents|those|anyone|someone|staff|callers|borrowers)\s+(?:with|who have|who has|living with|suffering from)\s+(?:a |an )?(?:(?:history|record|diagnosis) of\s+)?(?:\w+\s+)?(?:disabilit(?:y|ies)|impairments?|autism|adhd|dyslexia|dementia|mental (?:health (?:conditions?|issues|problems)|illness(?:es)?)|depression|anxiety|schizophrenia|bipolar(?: disorder)?|epilepsy|diabetes|hiv|chronic (?:illness(?:es)?|conditions?|pain)|learning (?:difficulties|disabilities)|special needs|down syndrome|cerebral palsy|ptsd|a stutter|hearing loss|sight loss|low vision|mobility (?:issues|impairments?|problems)|health conditions?)\b/gi;
const ON_BENEFITS = /\b(?:pupils|students|children|kids|families|people|tenants|applicants|claimants|households|borrowers|customers|those|anyone|parents|residents)\s+(?:on|receiving|claiming|eligible for|entitled to|who (?:receive|claim|are on|get|rely on))\s+(?:free school meals|housing benefits?|benefits|welfare|universal credit|food stamps|medicaid|section 8|income support|social assistance|housing assistance|jobseeker'?s allowance)\b|\b(?:applicants?|candidates?|people|tenants?|borrowers?|kids|children|students?|pupils|those|anyone|someone|workers?)\s+(?:(?:who (?:grew up|were raised|live|lived)|raised|brought up|growing up)\s+(?:on|in)|from)\s+(?:a |the )?(?:council (?:estates?|housing|flats?)|housing (?:estates?|projects?)|the projects|trailer parks?|social housing|deprived (?:areas?|estates?)|poor (?:areas?|neighbou?rhoods?)|the inner city|inner[- ]city (?:areas?|neighbou?rhoods?)|rough (?:areas?|estates?|neighbou?rhoods?))\b/gi;
const WEARS = /\b(?:applicants?|candidates?|people|staff|employees|women|men|workers|students?|pupils|those|anyone|someone|customers)\s+(?:who (?:wear|wears)|wearing|in)\s+(?:a |an )?(?:religious\s+)?(?:head ?scarves|headscarf|hijabs?|turbans?|kippahs?|yarmulkes?|head ?coverings?|niqabs?|burqas?|veils?)\b/gi;
const LOOKS = /\b(?:people|persons|candidates|applicants|staff|employees|workers|customers|clients|patients|members|tenants|students|women|men|those|anyone|someone)\s+(?:carrying (?:extra|excess|a bit of extra|some extra) (?:weight|pounds)|who are (?:overweight|obese|heavier|larger|heavy-set|short|bald|slim|thin|attractive|good-looking|unattractive|well-groomed)|with (?:a )?(?:larger|bigger|heavier|fuller) (?:build|body|bodies|frames?|figures?)|with (?:visible )?(?:tattoos|piercings)|(?:living with|with) obesity)\b/gi;
const FROM_AREA = /\b(?:applicants?|candidates?|people|tenants?|borrowers?|customers?|clients?|patients?|claimants?|policyholders?|families|households|residents|kids|children|students?|pupils?|learners?|those|anyone|workers?|employees?|users?|members?)\s+(?:from|in|living in|who live in)\s+(?:(?:a|an|the)\s+)?(?:poor|poorer|low[- ]income|lower[- ]income|rough|bad|inner[- ]city|urban|rural|certain|those|immigrant|minority|deprived|disadvantaged|working[- ]class|the wrong|sketchy|high[- ]crime|ethnic)\s+(?:areas?|neighbou?rhoods?|zip ?codes?|postcodes?|postal codes?|communities|backgrounds?|households?|homes?|families|estates|districts?|parts of town|suburbs)\b/gi;

// "students from non-English-speaking homes": a language background names a national-origin group
const LANGUAGE_HOME = /\b(?:applicants?|candidates?|people|tenants?|customers?|clients?|patients?|families|households|children|kids|students?|pupils?|learners?|those|workers?|employees?|callers?)\s+(?:from|in|raised in|who grew up in)\s+(?:(?:a|an)\s+)?non[- ]english[- ]speaking\s+(?:homes?|households?|families|backgrounds?|countries)\b/gi;
// "candidates who mention regular church or mosque commitments": religious practice as a proxy
const RELIGIOUS_PRACTICE = /\b(?:applicants?|candidates?|people|staff|employees|workers|tenants?|customers?|students?|pupils|households|families|those|anyone|someone)\s+(?:who|that)\s+(?:mention|mentions|attend|attends|observe|observes|have|has|keep|keeps|go to|goes to|host|hosts|request|requests)\s+(?:regular\s+|weekly\s+|daily\s+|religious\s+)*(?:(?:church|mosque|synagogue|temple|gurdwara|prayer|sabbath|friday prayer)(?:\s+or\s+(?:church|mosque|synagogue|temple|gurdwara|prayer))?)\s*(?:commitments?|attendance|services?|meetings?|times?|breaks?|observance)?/gi;

const PHRASE_PATTERNS = [AGE_NUMERIC, FROM_PLACE, FROM_AREA, ON_BENEFITS, WITH_CONDITION, WEARS, LOOKS, LANGUAGE_HOME, RELIGIOUS_PRACTICE];
/** Whether any phrase pattern occurs: most sentences hold none, and one scan tells. */
const PHRASE_PATTERNS_ANY = anyOf(PHRASE_PATTERNS);

/** All group mentions in `text` (offsets into text). `base` shifts offsets when scanning a sentence. */
export function findGroupMentions(text: string, base = 0): GroupMention[] {
  const toks = tokenize(text);
  const out: GroupMention[] = [];
  for (let i = 0; i < toks.length; i++) {
    if (!FIRST_WORDS.has(toks[i]!.w)) continue;
    let matched = false;
    // phrases[k]: the k + 1 words from token i, built once (longest is tried first)
    const phrases = [toks[i]!.w];
    for (let k = 1; k < MAX_TERM_WORDS && i + k < toks.length; k++) phrases.push(`${phrases[k - 1]} ${toks[i + k]!.w}`);
    for (let len = phrases.length; len >= 1 && !matched; len--) {
      const phrase = phrases[len - 1]!;
      const info = TERMS.get(phrase);
      if (!info) continue;
      let endTok = i + len - 1;
      if (info.needsNoun) {
        let j = i + len;
        let k = 0;
        while (j < toks.length && k < 3 && !PERSON_NOUNS.has(toks[j]!.w) && (FILLERS.has(toks[j]!.w) || TERMS.has(toks[j]!.w))) {
          j++;
          k++;
        }
        // a gap between tokens other than a space or hyphen ("older. Workers") breaks the phrase
        if (j >= toks.length || !PERSON_NOUNS.has(toks[j]!.w) || /[.,;:!?()]/.test(text.slice(toks[i + len - 1]!.end, toks[j]!.start))) continue;
        endTok = j;
      }
      if (!info.needsNoun) {
        // "elderly patients", "women-owned businesses": extend over fillers and a following person noun
        let j = endTok + 1;
        let k = 0;
        while (j < toks.length && k < 2 && !PERSON_NOUNS.has(toks[j]!.w) && FILLERS.has(toks[j]!.w)) {
          j++;
          k++;
        }
        if (j < toks.length && PERSON_NOUNS.has(toks[j]!.w) && !/[.,;:!?()]/.test(text.slice(toks[endTok]!.end, toks[j]!.start))) endTok = j;
      }
      matched = true;
      const start = toks[i]!.start;
      const end = toks[endTok]!.end;
      const before = text.slice(Math.max(0, start - 40), start);
      out.push({
        start: base + start,
        end: base + end,
        text: text.slice(start, end),
        axis: info.axis,
        group: info.group,
        specific: SPECIFIC_DET.test(before),
        quantified: QUANT.test(before),
      });
      i = endTok;
    }
  }
  for (const re of testAny(PHRASE_PATTERNS_ANY, text) ? PHRASE_PATTERNS : []) {
    for (const m of matchesOf(re, text)) {
      const start = m.index;
      const end = start + m[0].length;
      if (out.some((o) => o.start - base < end && start < o.end - base)) {
        // a longer pattern replaces overlapping word-level mentions
        for (let k = out.length - 1; k >= 0; k--) if (out[k]!.start - base < end && start < out[k]!.end - base) out.splice(k, 1);
      }
      const axis: Axis = re === LOOKS ? 'appearance' : re === WEARS || re === RELIGIOUS_PRACTICE ? 'religion' : re === LANGUAGE_HOME ? 'nationality' : re === AGE_NUMERIC ? 'age' : re === FROM_PLACE ? 'nationality' : re === WITH_CONDITION ? 'disability' : 'socioeconomic';
      const n = Number(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? 0);
      // a "35-year-old" names no age group: only clearly younger or older ages count
      if (re === AGE_NUMERIC && /year[- ]old/i.test(m[0]) && n >= 30 && n < 45) continue;
      const group = re === AGE_NUMERIC ? (/under|below|younger|under[- ]\d/i.test(m[0]) || (n > 0 && n < 40) || /twenties|thirties/i.test(m[0]) ? 'age:younger' : 'age:older') : re === FROM_PLACE ? 'nationality:foreign' : re === WITH_CONDITION ? 'disability:any' : re === WEARS ? 'religion:visible' : re === RELIGIOUS_PRACTICE ? 'religion:practising' : re === LANGUAGE_HOME ? 'nationality:immigrant' : re === LOOKS ? (/obes/i.test(m[0]) ? 'appearance:overweight' : 'appearance:looks') : 'ses:poor';
      const before = text.slice(Math.max(0, start - 40), start);
      out.push({ start: base + start, end: base + end, text: m[0], axis, group, specific: /\b(?:these|those|our|two|three|several|some|\d+)\s+$/i.test(before), quantified: QUANT.test(before) });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

export const AXES: readonly Axis[] = ['gender', 'race_ethnicity', 'religion', 'age', 'disability', 'nationality', 'socioeconomic', 'sexual_orientation', 'appearance'];
