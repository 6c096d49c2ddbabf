// Toxicity detector: hostile, demeaning or insulting language toward people or groups. Insults count only when
// aimed at people ("customers are idiots", "you moron"), not at things ("a stupid bug"); dehumanising metaphors
// and calls for exclusion or violence count when aimed at a group. Quoted or meta text (a moderation policy
// listing banned words) does not fire.
import type { Finding } from '../../../schemas/analysis';
import type { Detector, PreparedText } from '../detector';
import { anyOf, factorWordBoundary, hasMetaCue, insideQuote, matchesOf, span, testAny } from '../text';

export const TOXICITY_VERSION = '1.2.0';

const INSULTS = [
  'idiot', 'idiots', 'idiotic', 'moron', 'morons', 'moronic', 'imbecile', 'imbeciles', 'cretin', 'cretins', 'stupid', 'dumb', 'dumbass', 'retard', 'retards', 'retarded',
  'loser', 'losers', 'pathetic', 'worthless', 'useless', 'incompetent', 'clueless', 'brainless', 'halfwit', 'halfwits', 'dimwit', 'dimwits', 'scum', 'scumbag', 'scumbags',
  'trash', 'garbage', 'filth', 'filthy', 'disgusting', 'degenerate', 'degenerates', 'lowlife', 'lowlifes', 'freak', 'freaks', 'jerk', 'jerks', 'bastard', 'bastards',
  'bitch', 'bitches', 'whore', 'whores', 'slut', 'sluts', 'pig', 'pigs', 'ignorant', 'simpleton', 'simpletons', 'parasite', 'parasites', 'leech', 'leeches', 'vermin',
  'savage', 'savages', 'animals', 'subhuman', 'subhumans', 'cockroach', 'cockroaches', 'rats', 'thug', 'thugs', 'lazy bums', 'bums', 'freeloader', 'freeloaders',
  'crybaby', 'crybabies', 'snowflake', 'snowflakes', 'hag', 'hags', 'witch', 'fatso', 'lardass', 'psycho', 'psychos', 'nutcase', 'nutjob', 'lunatic', 'lunatics',
  // age, class and looks slang
  'wrinklies', 'crumblies', 'coffin dodgers', 'codgers', 'old biddies', 'biddies', 'old duffers', 'fossils', 'dinosaurs', 'chavs', 'chav', 'scroungers', 'bimbo', 'bimbos',
];
// Slurs: always toxic outside quotation (kept short; extend per tenant through domain rules if needed).
const SLURS = [
  'nigger', 'niggers', 'nigga', 'niggas', 'faggot', 'faggots', 'fag', 'fags', 'dyke', 'dykes', 'tranny', 'trannies', 'kike', 'kikes', 'spic', 'spics', 'wetback', 'wetbacks',
  'chink', 'chinks', 'gook', 'gooks', 'raghead', 'ragheads', 'towelhead', 'towelheads', 'paki', 'pakis', 'coon', 'coons', 'beaner', 'beaners', 'gypo', 'gyppo', 'pikey',
  'kraut', 'krauts', 'wop', 'wops', 'dago', 'dagos', 'cripple', 'cripples', 'mongoloid', 'spastic', 'spaz', 'shemale', 'sand nigger', 'jungle bunny', 'porch monkey',
];
const DEHUMANISE = factorWordBoundary(/\b(?:are|is|like|as|bunch of|pack of|swarm of|horde of|plague of)\s+(?:a\s+|an\s+|just\s+|nothing but\s+|no better than\s+)?(?:animals|vermin|rats|cockroaches|parasites|leeches|insects|savages|subhuman|a disease|a cancer|a plague|an infestation|a virus|an invasion|a scourge|trash|garbage|filth|pests?)\b|\b(?:infest(?:ing|ed|s)?|breed(?:ing)? like|overrun(?:ning)? (?:by|with)|swarm(?:ing|ed)?|invad(?:ing|ed|ers?))\b/i);
const EXCLUSION = factorWordBoundary(/\b(?:should|must|need to|ought to|deserve to|have to|needs to)\s+(?:all\s+)?(?:be\s+)?(?:deported|banned|locked up|eliminated|exterminated|removed|sterili[sz]ed|shot|kicked out|thrown out|wiped out|rounded up|put down|gassed|hanged|beaten|punished|segregated|expelled|got rid of|gotten rid of)\b|\bgo back (?:to|where) (?:your|their|they|you) (?:own )?(?:country|came from|belong)\b|\bget rid of (?:all )?(?:the |those |these )?(?:\w+ )?(?:people|immigrants|foreigners|women|gays|muslims|jews|blacks|them)\b|\b(?:i|we)\s+(?:hate|despise|can't stand|cannot stand|loathe)\s+(?:all\s+)?(?:the\s+|those\s+|these\s+)?\w+/i);
const HOSTILE_TO_YOU = /\b(?:you(?:'re| are)|you|ur|what an?|such an?|total|complete|absolute|bunch of|these|those|they(?:'re| are)|he(?:'s| is)|she(?:'s| is)|customers are|users are|clients are|people are|applicants are|employees are)\s+(?:(?:a|an|such|so|really|total|complete|absolute|fucking|bloody|damn|just|all)\s+){0,3}(?:INSULT)\b|\bshut up\b|\b(?:fuck|screw|damn) (?:you|them|off|these|those)\b|\bkill yourself\b|\bkys\b/i;

// Demeaning remarks phrased politely ("to put it kindly, not the sharpest", "people like her are the reason…").
const POLITE_DEMEAN = factorWordBoundary(/\bnot (?:exactly |really |quite )?the (?:sharpest|brightest|smartest|cleverest)\b|\b(?:a few|one|two) (?:sandwiches|fries|cards|bricks|beers) short\b|\bnot (?:exactly |very |all that |particularly |terribly |too )(?:bright|smart|clever|sharp)\b|\bwast(?:e|ing) (?:[\w-]+ ){0,3}?on (?:them|those people|these people|people like (?:them|that|her|him))\b|\b(?:people|tenants|customers|clients|applicants|claimants|users|callers|patients|folks|ones|those|types) like (?:her|him|you|them|that|this|these|those) are (?:\w+ )?(?:the reason|the problem|why|what(?:'s| is) wrong)\b|\b(?:are|is) (?:a |an |just |nothing but )?(?:drag on|burden on|waste of (?:space|time|oxygen|resources)|dead ?weight|deadwood|dinosaurs?|lost causes?)\b|\bbabysit (?:them|these|those|people|him|her)\b/i);

// Mockery without slurs: condescension and derision that are about a person by themselves ("bless them", "the
// blue-rinse brigade", "like talking to a tortoise"), and forms that mock only when people are in the sentence
// ("that lot", scare-quoted labels such as "our 'vulnerable' customers").
const MOCKERY_OF_PEOPLE = factorWordBoundary(/\b(?:bless (?:them|him|her|'em)|poor (?:dears?|things|loves)|god love (?:them|him|her)|typical of (?:that|this|their) lot|(?!fire\b|international\b|boys'?\b|girls'?\b)[\w'’-]+ brigade\b|(?:it's |it is |is |was )?like talking to (?:a |an )?(?:brick wall|wall|tortoise|toddler|child|goldfish|plank|robot)|can't be bothered to (?:learn|integrate|speak|try|adapt)|(?:bloke|man|guy) in a (?:wig|dress|frock)|typical [\w-]+ (?:type|behaviour|behavior|attitude)|(?:going to |will )?need(?:s)? a carer|wouldn't know [\w\s]{1,30} if it|ok,? boomer|(?:don't|do not|doesn't|does not) deserve (?:a roof|a home|housing|help|support|benefits|the support|to be housed)|milk(?:s|ing)? the (?:scheme|system)|(?:(?:these|those) )?computers can be (?:tricky|hard|confusing) for (?:people|someone|folks) (?:of )?your age)/i);
const MOCKERY_IN_CONTEXT = /\b(?:that|this|their) lot\b(?! (?:of|number|size|sizes|code|codes|price|prices))|['‘"“](?:vulnerable|disabled|diverse|special|refugees?|gender[- ]fluid|non[- ]binary|neurodiverse)['’"”](?= [a-z])/i;

// Open contempt for a person or a group in working text ("you people", "another entitled beneficiary", "we're a
// meal-kit company, not a mosque", "a backward practice"): no slur, but a response we would block. Each form names
// its target itself, so no group mention is needed; quoted or meta sentences are skipped as for slurs. Forms with an
// everyday reading are narrowed to the contemptuous one: "your kind" only at a clause end ("thank you for your kind
// words" is not), "learn to read" only as an order ("pupils learn to read" is not), a mild adjective after "another"
// only before a word for an older person, a woman or a migrant ("another confused user" is not).
const CONTEMPT = factorWordBoundary(/\byou people\b|\byour (?:lot|kind)(?=\s*(?:[.!?,;:]|$|are\b|always\b|never\b|don't\b|do not\b|of people\b))|\banother (?:entitled|hysterical|lazy|clueless|whiny|whinging|greedy|moaning|senile|illiterate|ignorant) (?:[\w-]+ )?(?:customers?|clients?|users?|tenants?|applicants?|beneficiar(?:y|ies)|claimants?|pensioners?|auntie|aunty|uncle|granny|grandma|grandpa|old (?:man|woman|lady|guy)|lady|woman|man|guy|mother|mum|mom|dad|immigrants?|foreigners?|migrants?|boomers?|students?|patients?|callers?)\b|\banother (?:demanding|pushy|dramatic|needy|grumpy|stubborn|confused) (?:[\w-]+ )?(?:pensioners?|auntie|aunty|granny|grandma|grandpa|old (?:man|woman|lady|guy)|lady|woman|mother|mum|mom|immigrants?|foreigners?|migrants?|boomers?)\b|\bbottom of the barrel\b|\b(?:we're|we are) not a charity\b|\bnot a charity (?:for|to)\b|\b(?:we're|we are) (?:a|an) [\w\s-]{1,30}, not (?:a |an )?(?:mosque|church|temple|synagogue|charity|daycare|creche|nursery|care home|social services?|babysitter|babysitting service)\b|\b(?:please|just|go|try to|you (?:need|should|must|have) to)\s+learn (?:how )?to read\b|\b(?:freebie|benefit|handout) (?:hunters?|scroungers?|seekers?)\b|\bdemanding handouts\b|\b(?:religious|cultural|tribal) (?:trinkets?|mumbo[- ]jumbo|hocus[- ]pocus|nonsense|superstitions?)\b|\bnobody wants to (?:look at|see) (?:that|you|them)(?=\s*(?:[.!?]|$))|\b(?:backward|primitive|barbaric|medieval|uncivili[sz]ed) (?:practices?|customs?|cultures?|religions?|traditions?|beliefs?|people|folk|tribes?)\b|\bdeviant (?:behaviou?r|lifestyles?|tendencies|desires|acts?)\b|\bwith (?:names|accents) like (?:that|those|theirs|his|hers)\b|\btypical (?:boomers?|pensioners?|millennials?|zoomers?|immigrants?|foreigners?|migrants?|karens?|snowflakes?)\b|\b(?:shuffling|doddering|dribbling|senile|decrepit|wrinkly) (?:old )?(?:pensioners?|people|folk|grannies|codgers|men|women|customers?)\b/i);

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
const INSULT_ALT = INSULTS.map(escape).join('|');
const HOSTILE_RE = factorWordBoundary(new RegExp(HOSTILE_TO_YOU.source.replace('INSULT', INSULT_ALT), 'i'));
const SLUR_RE = new RegExp(`\\b(?:${SLURS.map(escape).join('|')})\\b`, 'gi');
// A group or people term near an insult makes it an attack on people rather than on a thing.
const PEOPLE_NEAR = /\b(?:people|they|them|those|these|you|he|she|women|men|immigrants|foreigners|customers|users|applicants|employees|workers|folks|muslims|jews|christians|blacks|whites|asians|gays|lesbians|disabled|elderly|boomers|millennials|mexicans|indians|chinese|arabs|refugees|migrants|poor|tenants|borrowers|staff|colleagues|managers|clients|candidates)\b/i;
const ANIMAL = /^(?:animals|pig|pigs|rats|cockroach|cockroaches|parasite|parasites|leech|leeches|vermin|witch|savage|savages)$/i;
const INSULT_WORD = new RegExp(`\\b(?:${INSULTS.filter((w) => !ANIMAL.test(w)).map(escape).join('|')})\\b`, 'i');

const ANY_TOXIC = anyOf([SLUR_RE, CONTEMPT, DEHUMANISE, EXCLUSION, POLITE_DEMEAN, MOCKERY_OF_PEOPLE, MOCKERY_IN_CONTEXT, HOSTILE_RE, INSULT_WORD]);

// Sentences about wording or moderation ("the word … is banned by our policy") may quote what they discuss.
const META_TOPIC = /\b(?:word|words|term|terms|slur|slurs|language|phrase|phrases|insult|insults|policy|moderation|filter|block|report|flag)\b/i;

export function detectToxicity(doc: PreparedText): Finding[] {
  const { text, sentences, quotes } = doc;
  const out: Finding[] = [];
  const push = (start: number, end: number, score: number, explanation: string, types: string[]) =>
    out.push({ detector: 'toxicity', detector_version: TOXICITY_VERSION, bias_type: types, score, explanation, spans: [span(text, start, end)], metric: 'toxicity_score' });
  for (const s of sentences) {
    // Every finding below needs one of these patterns; one joined scan clears the many sentences that hold none.
    if (!testAny(ANY_TOXIC, s.text)) continue;
    // the cheap topic test first: most sentences name no words or policy, and then the framing test is not needed
    const meta = META_TOPIC.test(s.text) && hasMetaCue(s.text);
    const axes = (doc.mentionsBySentence[s.index] ?? []).map((m) => m.axis);
    let peopleNear: boolean | undefined;
    const aboutPeople = () => axes.length > 0 || (peopleNear ??= PEOPLE_NEAR.test(s.text));
    const types = (extra: string[]) => [...new Set([...axes.slice(0, 2), 'toxicity', ...extra])];
    /** A finding for the first match unless it sits inside a quote; true when the pattern matched at all. */
    const flagUnquoted = (m: RegExpMatchArray | null, score: number, explanation: string): boolean => {
      if (!m || m.index === undefined) return false;
      const st = s.start + m.index;
      if (!insideQuote(quotes, st, st + m[0].length)) push(st, st + m[0].length, score, explanation, types([]));
      return true;
    };
    for (const m of matchesOf(SLUR_RE, s.text)) {
      const st = s.start + m.index;
      if (meta || insideQuote(quotes, st, st + m[0].length)) continue;
      push(st, st + m[0].length, 0.95, `Slur "${m[0]}".`, types([]));
    }
    if (meta) continue;
    // the blocking level (BLOCKING_TOXICITY in report.ts): such a response is flagged whatever the decision model says
    flagUnquoted(s.text.match(CONTEMPT), 0.85, 'Open contempt for a person or group.');
    const d = s.text.match(DEHUMANISE);
    if (d && aboutPeople() && !/\b(?:pests?|insects|rats|cockroaches|rodents)\b.*\b(?:control|trap|bait|exterminat|warehouse|kitchen|crop|garden)\b|\b(?:control|trap|bait|warehouse|kitchen|crop|garden)\b.*\b(?:pests?|insects|rats|cockroaches|rodents)\b/i.test(s.text) && !/\b(?:market|competitor|compet|traffic|requests|orders|bugs?|malware|spam|bots?|weeds|water|flood)\b/i.test(s.text)) {
      flagUnquoted(d, axes.length ? 0.9 : 0.7, 'Dehumanising language about people.');
    }
    const e = s.text.match(EXCLUSION);
    if (e && aboutPeople()) flagUnquoted(e, 0.9, 'Hostility or a call to exclude or harm people.');
    const pd = s.text.match(POLITE_DEMEAN);
    if (pd && aboutPeople()) flagUnquoted(pd, 0.75, 'Demeaning remark about people, politely phrased.');
    const mk = s.text.match(MOCKERY_OF_PEOPLE) ?? (aboutPeople() ? s.text.match(MOCKERY_IN_CONTEXT) : null);
    if (mk && mk.index !== undefined) {
      const st = s.start + mk.index;
      if (!insideQuote(quotes, st, st + mk[0].length) || /^['‘"“]/.test(mk[0])) push(st, st + mk[0].length, 0.7, 'Mocking or condescending remark about people.', types([]));
    }
    const hostile = flagUnquoted(s.text.match(HOSTILE_RE), axes.length ? 0.85 : 0.75, 'Insult aimed at people.');
    if (!hostile && axes.length > 0) {
      const w = s.text.match(INSULT_WORD);
      if (w && w.index !== undefined && !/\b(?:not|never|no)\s+(?:\w+\s+)?$/i.test(s.text.slice(0, w.index))) {
        const st = s.start + w.index;
        // an insult word in a sentence about a group: demeaning unless it describes a thing ("useless report")
        const after = s.text.slice(w.index + w[0].length, w.index + w[0].length + 25);
        if (!insideQuote(quotes, st, st + w[0].length) && !/^\s+(?:report|data|feature|tool|process|form|system|metric|step|question|idea|code|bug|approach|policy|requirement|field|check)/i.test(after)) {
          push(st, st + w[0].length, 0.7, `Demeaning word "${w[0]}" in a sentence about a group.`, types([]));
        }
      }
    }
  }
  return out;
}

export const toxicityDetector: Detector = {
  name: 'toxicity',
  version: TOXICITY_VERSION,
  detect: (doc) => detectToxicity(doc),
};
