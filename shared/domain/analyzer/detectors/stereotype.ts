// Stereotype detector: a finding needs an ATTRIBUTION, not a mention. A group mention (groups.ts) must be
// followed by a generalising or evaluative predicate ("are naturally…", "tend to…", "can't…", "aren't suited…",
// "make better…"), or preceded by a universal quantifier ("all X", "typical X"); coded forms ("digital native",
// "culture fit", "good neighbourhoods", "applicants named …") fire on their own. Negated, quoted, policy or
// myth-busting framing ("it is a myth that…", "we do not consider age") suppresses the finding.
import type { Finding } from '../../../schemas/analysis';
import type { Detector, PreparedText } from '../detector';
import type { Axis, GroupMention } from '../groups';
import { anyOf, clamp01, hasMetaCue, insideQuote, isRebuttal, matchesOf, span, testAny } from '../text';

export const STEREOTYPE_VERSION = '1.3.0';

// Evaluative traits people attach to groups (negative and "benevolent").
const TRAITS = [
  // negative
  'emotional', 'irrational', 'hysterical', 'aggressive', 'violent', 'dangerous', 'lazy', 'greedy', 'cheap', 'stingy', 'dishonest', 'untrustworthy', 'unreliable',
  'sneaky', 'criminal', 'dirty', 'loud', 'rude', 'arrogant', 'bossy', 'shrill', 'weak', 'fragile', 'frail', 'slow', 'stubborn', 'rigid', 'inflexible', 'forgetful',
  'senile', 'confused', 'backward', 'primitive', 'uneducated', 'ignorant', 'stupid', 'dumb', 'incompetent', 'unqualified', 'inferior', 'unstable', 'moody', 'needy',
  'demanding', 'difficult', 'entitled', 'naive', 'immature', 'irresponsible', 'reckless', 'careless', 'disorganized', 'disorganised', 'unprofessional', 'passive',
  'timid', 'submissive', 'indecisive', 'hesitant', 'risk averse', 'risk-averse', 'bad drivers', 'bad with', 'technophobic', 'resistant', 'set in their ways',
  'out of touch', 'burned out', 'a liability', 'a burden', 'a risk', 'riskier', 'less reliable', 'less productive', 'less committed', 'less capable', 'less competent',
  'less ambitious', 'less loyal', 'less intelligent', 'less suited', 'unsuited', 'ill-suited', 'ill suited', 'not suited', 'not cut out', 'not built', 'too old',
  'too emotional', 'too soft', 'too aggressive', 'too slow', 'too expensive', 'expensive to', 'costly', 'fanatical', 'extremist', 'extremists', 'terrorists', 'radical',
  'radicalized', 'intolerant', 'clannish', 'tribal', 'manipulative', 'controlling', 'promiscuous', 'predatory', 'perverted', 'deviant', 'sinful', 'unnatural',
  'freeloaders', 'scroungers', 'thieves', 'illiterate', 'unhygienic', 'smelly', 'noisy', 'greedy', 'materialistic', 'shallow', 'vain', 'gossipy', 'catty',
  'dramatic', 'overly sensitive', 'oversensitive', 'thin-skinned', 'snowflakes', 'job-hoppers', 'job hoppers', 'disloyal', 'unmotivated', 'unambitious', 'lazy',
  'difficult to manage', 'hard to manage', 'hard to train', 'harder to train', 'slower', 'weaker', 'dumber', 'worse', 'poorer', 'unfit', 'incapable', 'unable',
  'helpless', 'dependent', 'childlike', 'pitiful', 'tragic', 'suffering', 'victims', 'inspirational', 'inspiring', 'brave for',
  // benevolent / "positive" stereotypes
  'nurturing', 'caring', 'maternal', 'motherly', 'gentle', 'sensitive', 'empathetic', 'empathic', 'compassionate', 'patient', 'intuitive', 'emotional intelligence',
  'detail-oriented', 'detail oriented', 'organized', 'organised', 'meticulous', 'tidy', 'clean', 'polite', 'obedient', 'docile', 'deferential', 'respectful of authority',
  'hardworking', 'hard-working', 'hard working', 'diligent', 'industrious', 'disciplined', 'loyal', 'family-oriented', 'family oriented', 'frugal', 'thrifty', 'good with money',
  'good at math', 'good at maths', 'good with numbers', 'good with children', 'good with kids', 'good with people', 'good with technology', 'tech-savvy', 'tech savvy',
  'athletic', 'musical', 'rhythmic', 'spiritual', 'exotic', 'strong', 'tough', 'rational', 'logical', 'analytical', 'decisive', 'assertive', 'competitive', 'ambitious',
  'natural leaders', 'natural caregivers', 'better leaders', 'better caregivers', 'better suited', 'more suited', 'well suited', 'suited', 'gifted', 'talented',
  'energetic', 'adaptable', 'innovative', 'creative', 'flexible', 'humble', 'modest', 'quiet', 'reserved', 'passionate', 'hot-headed', 'hot headed', 'fiery',
  'smarter', 'stronger', 'better', 'superior', 'more reliable', 'more productive', 'more loyal', 'more committed', 'more careful', 'more responsible', 'more stable',
  'more emotional', 'more aggressive', 'more creative', 'more intelligent', 'more honest', 'cheaper', 'more expensive',
  // claims discounted for the group ("pain reported by X is overstated") and further benevolent traits
  'overstated', 'exaggerated', 'inflated', 'made up', 'precise', 'methodical', 'dependable', 'easygoing', 'docile', 'agreeable', 'low maintenance', 'low-maintenance',
  // contempt for a group's means or morals
  'broke', 'feckless', 'deadbeats', 'layabouts', 'spongers', 'parasites', 'riff-raff', 'scum', 'savages', 'uncivilised', 'uncivilized', 'hypersexual', 'shifty',
];
const TRAIT_RE = TRAITS.map((t) => t.replace(/[-\s]+/g, '[-\\s]+')).join('|');
const TRAIT_WORD = new RegExp(`\\b(?:${TRAIT_RE})\\b`, 'i');

// Adverbs that turn any predicate into a generalisation.
const GENERIC_ADV = String.raw`(?:naturally|inherently|innately|instinctively|by nature|genetically|biologically|always|never|all|typically|generally|usually|invariably|notoriously|famously|essentially|fundamentally)`;
const DEGREE = String.raw`(?:(?!likely\b|only\b|early\b|family\b|elderly\b)[a-z]+ly|so|too|very|really|quite|rather|far|much|a lot|way|often|mostly|frequently|tend(?:s)? to be|seem(?:s)? to be|also|more|less|not|n't|never|rarely|seldom|usually|generally|typically|naturally|inherently|just|simply|always|all|overly|extremely|incredibly|a bit|somewhat|pretty|notoriously|famously|known to be|known for being)`;

// Predicates that follow the mention (anchored at the start of the remainder, allowing up to 3 filler words
// such as "in general", "as employees", "in my experience").
const FILL = String.raw`^[\s,]*(?:(?:in general|as a (?:group|rule|whole)|as employees|as workers|on the whole|in my experience|in practice|realistically|to be honest|by and large|for the most part|honestly|frankly|of course|these days|nowadays|today|like (?:him|her|them|his|hers|theirs|this one|these))[\s,]+)?(?:(?:who|that)\s+(?:\w+(?:\s+\w+){0,4}?\s+)?|(?:of|with|for|at|on|in|from)\s+(?:[\w'-]+\s+){1,3}?)?(?:(?:also|still|often|usually|generally|typically|really|probably|all|mostly|frequently|just|simply|even|definitely|certainly|basically)\s+)?`;
const PREDICATES: { re: RegExp; kind: 'explicit' | 'benevolent' | 'ability' | 'prescriptive' | 'behaviour' | 'differential' | 'consequence'; score: number }[] = [
  // "are naturally X", "tend to be X", "are (so/too/more…) <trait>"
  { kind: 'explicit', score: 0.85, re: new RegExp(`${FILL}(?:are|is|'re|were|remain|seem|appear|tend to be|make|become|turn out to be|prove to be|prove|end up|end up being)\\s+(?:${DEGREE}\\s+){0,3}?(?:${TRAIT_RE})\\b`, 'i') },
  // "lead fragile lives", "live chaotic lives"
  { kind: 'explicit', score: 0.8, re: new RegExp(`${FILL}(?:lead|live)\\s+(?:${DEGREE}\\s+){0,2}?(?:${TRAIT_RE}|chaotic|sedentary|unhealthy|disordered|messy)\\b`, 'i') },
  { kind: 'explicit', score: 0.85, re: new RegExp(`${FILL}(?:are|is|'re|tend to|will|can|do|don't|do not|won't|cannot|can't)?\\s*${GENERIC_ADV}\\s+(?:\\w+\\s+){0,1}(?:${TRAIT_RE}|[a-z]+(?:s|ed)?\\b)`, 'i') },
  { kind: 'explicit', score: 0.8, re: new RegExp(`${FILL}(?:tend to|tends to|are prone to|are known for|are known to|are wired to|are wired for|are built for|are made for|are meant for|are born to|are programmed to)\\b`, 'i') },
  // abilities: "can't handle", "struggle with", "lack", "aren't good at"
  { kind: 'ability', score: 0.8, re: new RegExp(`${FILL}(?:simply\\s+|just\\s+|often\\s+|usually\\s+|generally\\s+)?(?:can't|cannot|can not|can never|could never|won't be able to|are unable to|are not able to|aren't able to|don't know how to|do not know how to|struggle(?:s)? (?:to|with)|lack(?:s)?\\b|don't have the|do not have the|don't understand|do not understand|can't keep up|cannot keep up|fall behind|aren't (?:good|great|suited|cut out|built|capable|reliable|strong|smart|technical|wired|made|meant|designed|equipped|fit)|are not (?:good|great|suited|cut out|built|capable|reliable|strong|smart|technical|wired|made|meant|designed|equipped|fit)|(?:have|has) (?:a |an )?(?:natural|innate|inborn|built-in|special|real|inherent|genetic) (?:\\w+ )?(?:eye|talent|gift|knack|flair|ability|aptitude|instinct|affinity|tendency|disposition|feel)|(?:have|has) no (?:head|aptitude|talent|feel|gift|eye) for|are (?:bad|terrible|hopeless|poor|no good|useless|weak) (?:at|with)|are (?:good|great|better|worse|best|excellent|superior|natural(?:ly gifted)?) (?:at|with|in)|are better (?:suited|off|placed)|excel at|shine in|belong (?:in|at)|should (?:stay|stick|be kept|remain|focus)|shouldn't be (?:trusted|hired|promoted|allowed|given)|should not be (?:trusted|hired|promoted|allowed|given)|can't be trusted|cannot be trusted|need (?:more )?(?:supervision|hand-holding|handholding|babysitting))`, 'i') },
  // "make better/worse leaders"
  { kind: 'explicit', score: 0.8, re: new RegExp(`${FILL}(?:make|are)\\s+(?:\\w+\\s+)?(?:better|worse|poor|great|natural|excellent|terrible|bad|ideal|perfect)\\s+(?:\\w+\\s+)?(?:leaders|managers|engineers|employees|workers|hires|caregivers|carers|nurses|teachers|parents|drivers|borrowers|tenants|customers|negotiators|salespeople|programmers|investments|risks|candidates|fits?|choices|partners|suppliers)\\b`, 'i') },
  // "are natural traders", "are born salesmen"; "have business in their blood"
  { kind: 'explicit', score: 0.8, re: new RegExp(`${FILL}(?:are|make)\\s+(?:(?:such|all|really)\\s+)?(?:born|natural|natural[- ]born)\\s+[a-z]+(?:s|men|folk)\\b|^[^.;]{0,80}?\\b(?:in|into) (?:their|the) (?:blood|DNA|genes)\\b`, 'i') },
  // behaviour generalisations used for decisions: "are more likely to default / quit / leave"
  { kind: 'behaviour', score: 0.75, re: new RegExp(`${FILL}(?:(?:are|is)\\s+)?(?:much\\s+|far\\s+|significantly\\s+)?(?:more|less) likely to\\s+(?:\\w+\\s+)?(?:read|follow through|stick|engage|comply|turn up|show up|look after|take care|pay|repay|default|quit|leave|resign|job[- ]hop|steal|lie|cheat|commit|miss|skip|underperform|complain|sue|file|cause|take (?:more )?(?:time off|sick|leave|maternity)|get pregnant|start a family|need|struggle|fail|pay late|damage|be (?:lazy|late|absent|unreliable|difficult|aggressive|violent|dishonest|fraudulent|criminal))`, 'i') },
  { kind: 'behaviour', score: 0.7, re: new RegExp(`${FILL}(?:always|never|constantly|usually|typically|often|all)\\s+(?:\\w+\\s+)?(?:complain|argue|cause|demand|ask for|take|leave|quit|lie|cheat|steal|expect|want|need|fight|bring|show up late|miss|refuse|resist|slow|create|stir|play)`, 'i') },
  // bare generic present tense with an evaluative behaviour verb: "older tenants complain", "women gossip"
  { kind: 'behaviour', score: 0.7, re: new RegExp(`${FILL}(?:complain|whine|nag|gossip|exaggerate|overreact|panic|steal|lie|cheat|scam|riot|drink too much|waste|slack off|freeload|mooch|bring (?:problems|trouble|crime|drama)|cause (?:problems|trouble|drama)|take advantage|play the (?:victim|race card|gender card)|get (?:emotional|hysterical|angry|aggressive|confused|lost)|go on (?:and on|about)|breed|overcrowd|litter|haggle|get offended|can't take|cannot take|refuses? to (?:learn|adapt|change|work|integrate)|don't (?:want to )?(?:work|integrate|assimilate|pay|care|try|bother))\\b`, 'i') },
  // generic preferences: "women love to spend", "men only care about"
  { kind: 'behaviour', score: 0.65, re: new RegExp(`${FILL}(?:love to|loves to|love|hate|can't resist|cannot resist|are obsessed with|only care about|care more about|only want|just want|always want|prefer to)\\s+(?:to\\s+)?(?:spend|shop|shopping|gossip|talk|chat|complain|party|drink|fight|argue|haggle|bargain|save|sav|money|free|handouts|easy|simple|cute|pretty|sports|cars|gadgets|drama|attention|stability|security|fun)`, 'i') },
  // comparative or habitual generalisations: "rarely match", "seldom take initiative"
  { kind: 'behaviour', score: 0.75, re: new RegExp(`${FILL}(?:rarely|seldom|hardly ever|almost never|scarcely)\\s+[a-z]+`, 'i') },
  // difficulty or inability phrased with modals: "may find it hard", "may not cope", "are unlikely to adapt"
  { kind: 'ability', score: 0.75, re: new RegExp(`${FILL}(?:(?:may|might|will|would|could|can|do|does|often|usually|generally|typically|probably)\\s+)?(?:find it (?:hard|difficult|tough|challenging)|(?:may|might|will|would|could|can|do|does|probably)\\s*(?:not|n't)\\s+(?:be able to\\s+)?(?:cope|keep up|fit in|adapt|manage|handle|last|commit|integrate|understand|grasp|focus|give|click|gel|mesh|get on|get along|connect|relate|inspire|lead)|(?:are|is|'re)\\s+(?:\\w+\\s+)?unlikely to\\s+(?!be\\b)[a-z]+)\\b`, 'i') },
  // habitual evaluative behaviour: "carry poor money habits", "signal a lack of discipline", "bring a softer touch"
  // (the words before "makes them …" end at a non-word character: otherwise a long word can be cut into up to six
  // pieces in many ways and every failing test backtracks through all of them, ~12 µs a call; the texts that match
  // are the same, and predicates are only tested, never matched for their span)
  { kind: 'behaviour', score: 0.75, re: new RegExp(`${FILL}(?:carry|carries|bring|brings|show|shows|display|displays|signal|signals|indicate|indicates|betray|betrays)\\s+(?:a\\s+|an\\s+)?(?:lack of|poor|bad|weak|low|softer|gentler|natural|feminine|masculine|maternal|calming|nurturing|tougher|harder|special)\\b|${FILL}(?:drive a hard bargain|stick together|look after their own|keep to themselves|(?:do|does|perform|fare|cope)\\s+(?:much\\s+|far\\s+|a lot\\s+)?(?:better|worse|poorly|badly)\\b)|^(?:[\\s,]*[\\w'-]+(?![\\w'-])){0,6}?[\\s,]+(?:makes?|making) (?:them|him|her) (?:ideal|perfect|natural|well suited|better suited|best suited|unsuitable|unfit|a poor fit|a natural fit|less suited|ill[- ]suited)\\b`, 'i') },
  { kind: 'ability', score: 0.75, re: new RegExp(`${FILL}(?:are|is|'re)\\s+(?:[a-z]+ly\\s+)?(?:lovely|wonderful|brilliant|fantastic|marvellous|amazing|great|so good|naturals?) (?:with|at)\\b`, 'i') },
  // comparative traits: "are less familiar with", "are usually less educated"
  { kind: 'explicit', score: 0.8, re: new RegExp(`${FILL}(?:(?:are|is|'re|seem|appear)\\s+(?:[a-z]+ly\\s+)?(?:much\\s+|far\\s+|a lot\\s+|a bit\\s+|slightly\\s+|generally\\s+|usually\\s+|often\\s+)?(?:less|more)|(?:aren't|are not|isn't|is not|'re not|tend not to be|don't tend to be)\\s+(?:[a-z]+ly\\s+)?(?:as|so|that)(?:\\s+[a-z]+ly)?)\\s+(?:familiar|educated|capable|competent|careful|reliable|trustworthy|honest|motivated|ambitious|committed|loyal|emotional|aggressive|responsible|intelligent|skilled|productive|hard-?working|organi[sz]ed|disciplined|punctual|qualified|articulate|polished|presentable|professional|adaptable|flexible|creative|innovative|technical|logical|rational|sensitive|caring|nurturing|patient|dependable|trainable|teachable|risky|volatile|demanding|difficult|fragile|stable|mature|credible|confident|decisive|assertive|driven|dynamic|energetic|savvy|tech-savvy|sophisticated|cultured|refined|civili[sz]ed|premium)\\b`, 'i') },
  // prescriptive placement: "should go to back-of-house roles", "should be kept away from clients"
  { kind: 'prescriptive', score: 0.7, re: new RegExp(`${FILL}(?:should|must|ought to|are best|would be better)\\s+(?:(?:by default|as a rule|always|generally|ideally|preferably|automatically|routinely)\\s+)?(?:be\\s+)?(?:go|placed|moved|kept|put|assigned|steered|limited|restricted|confined|routed|sent|stay|stick)\\s+(?:to|in|into|on|out|away|behind|at|toward|towards|with)\\b`, 'i') },
  // differential treatment: "should go through additional document checks"
  { kind: 'differential', score: 0.75, re: new RegExp(`${FILL}(?:should|must|will|need to|have to|ought to)\\s+(?:\\w+\\s+)?(?:go through|undergo|face|get|receive|be subject(?:ed)? to|pay|be charged|be asked for|provide)\\s+(?:\\w+\\s+)?(?:additional|extra|more|stricter|higher|closer|enhanced|further|tougher|special)\\s+(?:[\\w-]+\\s+){0,2}?(?:checks?|scrutiny|screening|vetting|verification|documents?|documentation|premiums?|deposits?|fees?|rates?|interest|supervision|monitoring|questions|security|references|guarantees?|collateral)\\b`, 'i') },
  // the group as a liability: "would confuse our audience", "could slow service", "might put visitors off"
  { kind: 'consequence', score: 0.7, re: new RegExp(`${FILL}(?:would|could|will|may|might)\\s+(?:\\w+\\s+)?(?:confuse|alienate|upset|offend|put (?:[\\w-]+\\s+){0,2}?off|scare|drive away|turn off|deter|make (?:[\\w-]+\\s+){0,3}?uncomfortable|hurt|damage|dilute|slow|disrupt|lower|cost|be (?:a\\s+)?(?:risk|liability|burden|problem|distraction))\\b`, 'i') },
];

// Predicates that describe a structural situation or a right, not a trait: never a stereotype.
const BENIGN = /^[\s,]*(?:(?:who|that)\s+\w+(?:\s+\w+){0,4}?\s+|(?:of|with|for|at|on|in|from)\s+(?:[\w'-]+\s+){1,3}?)?(?:are|is|were|remain|have been|continue to be|may be|can be)?\s*(?:often\s+|still\s+|also\s+|significantly\s+|disproportionately\s+|historically\s+|more likely to be\s+|less likely to be\s+)*(?:eligible|entitled|welcome|welcomed|encouraged|invited|protected|covered|supported|underrepresented|under-represented|overrepresented|over-represented|excluded|overlooked|underpaid|paid less|underserved|denied|rejected|targeted|discriminated|marginali[sz]ed|affected|impacted|penali[sz]ed|harassed|screened out|passed over|at (?:higher|greater|increased|elevated|lower) risk|at risk|exposed|more exposed|vulnerable to|diagnosed|eligible|able to apply|free to|guaranteed|given equal|treated equally|treated fairly|invited to|asked to|required to|subject to|included|represented|served|offered)\b/i;
const BENIGN_VERB = /^[\s,]*(?:(?:of|with|for|at|on|in|from)\s+(?:[\w'-]+\s+){1,3}?)?(?:(?:still|often|typically|generally|usually|historically|disproportionately|currently|now|also)\s+)?(?:face|faced|facing|experience|experienced|report|reported|receive|received|earn|earned|make up|made up|account for|accounted for|represent|represented|hold|held|comprise|have access|may request|can request|can apply|may apply|are encouraged|qualify|benefit|counts? (?:as|towards?|for)|counted (?:as|towards?|for))\b/i;

interface Coded {
  re: RegExp;
  axis: Axis[];
  score: number;
  explanation: string;
  suggestion?: string;
}
// Coded forms: fire on their own (unless framed as meta / quoted).
const CODED: Coded[] = [
  { re: /\bdigital natives?\b/gi, axis: ['age'], score: 0.7, explanation: 'Age-coded phrase "digital native" screens out older candidates.', suggestion: 'comfortable with digital tools' },
  { re: /\b(?:young|youthful)\s*(?:,\s*|and\s+|&\s+)?(?:energetic|dynamic|vibrant|hungry|fresh|fun)\b|\b(?:energetic|dynamic|vibrant|fresh)\s*(?:,\s*|and\s+)?young\b|\byoung(?:er)?,?\s+(?:and\s+)?(?:dynamic|energetic|fresh|hungry)\s*(?:team|workforce|talent|blood|crowd|faces|people|hires|image|profile)\b|\byoung(?:er)?\s+(?:team|workforce|blood|crowd|faces|image|profile)\b/gi, axis: ['age'], score: 0.7, explanation: 'Age-coded wording ("young, energetic") signals a preference for younger people.', suggestion: 'motivated' },
  { re: /\b(?:fresh|new|young) blood\b|\bfresh[- ]faced\b|\brecent graduates? only\b|\bonly recent graduates?\b|\b(?:no|not) (?:more than|over) \d+ years? (?:out of (?:school|college|university)|of experience)\b|\boverqualified\b|\bset in (?:their|his|her) ways\b|\bnear(?:ing)? retirement\b.{0,60}\b(?:not worth|waste|avoid|pass|skip|risk)\b/gi, axis: ['age'], score: 0.6, explanation: 'Age-coded wording used as a selection criterion.' },
  { re: /\b(?:culture|cultural) (?:fit|alignment|match)\b|\bfit (?:in )?with (?:the|our) (?:bro|boys|guys|lads|young|existing) (?:team|culture|crowd|club)\b|\b(?:beer|bro|frat|boys'?) culture\b/gi, axis: [], score: 0.6, explanation: '"Culture fit" used as a screening criterion favours people similar to the existing team.', suggestion: 'alignment with our stated values (culture add)' },
  { re: /\b(?:no|without|free of|few) (?:family|childcare|child care|caregiving|caring) (?:commitments|obligations|responsibilities|ties|distractions)\b|\b(?:plans?|planning|intend(?:s|ing)?|likely|going) to (?:have|start) (?:a family|children|kids|a baby)\b|\b(?:child[- ]?bearing) age\b|\b(?:maternity|pregnancy) (?:risk|liability|leave risk)\b(?! assessments?)|\blikely to (?:get pregnant|go on maternity)\b|\bmarital status\b|\b(?:won't|will not|wouldn't|doesn't|does not|isn't|is not|not) (?:[\w-]+ ){0,2}?(?:need|take|want|plan(?: on| to)?|be taking|go on)\s+(?:any\s+)?(?:parental|maternity|paternity|family|childcare|carer'?s?) leave\b|\b(?:without|no) (?:\w+ )?(?:demands|commitments|responsibilities|ties) at home\b|\b(?:is she|is he|are you|whether (?:she|he|they) (?:is|are)) (?:married|pregnant|planning)\b/gi, axis: ['gender'], score: 0.75, explanation: 'Family-status or pregnancy assumptions used in an employment or credit decision.' },
  { re: /\bnative (?:English|German|French|Spanish|Dutch|Italian|Japanese|Mandarin|language)[- ]speak(?:er|ers|ing)\b|\bnative[- ]speaker\b|\bmother[- ]tongue\b/gi, axis: ['nationality'], score: 0.6, explanation: '"Native speaker" excludes fluent non-native speakers; state the proficiency actually needed.', suggestion: 'fluent' },
  { re: /\b(?:heavy|thick|strong|foreign|funny|bad|broken|noticeable|pronounced|obvious)\s+(?:[a-z]+\s+)?accents?\b|\b(?:[Gg]iven|[Bb]ased on|[Jj]udging (?:by|from)|[Gg]oing by|[Ff]rom) (?:her|his|their|the (?:candidate|applicant|customer|borrower|tenant)'?s?) (?:surname|last name|family name|first name|name|accent)\b|\bforeign[- ]sounding\b|\b(?:ethnic|unusual|exotic|difficult|hard[- ]to[- ]pronounce|foreign|unpronounceable)[- ]?(?:sounding )?names?\b|\b(?:names?|applicants?|candidates?|people|borrowers?|tenants?|customers?) (?:named|called|with names? (?:like|such as)) [A-Z][a-z]+(?:\s+(?:or|and|,)\s*[A-Z][a-z]+)*/g, axis: ['race_ethnicity', 'nationality'], score: 0.75, explanation: 'Assumption drawn from a name or accent (proxy for ethnicity or origin).' },
  { re: /\b(?:good|bad|nice|rough|sketchy|dodgy|undesirable|desirable|better|worse|wrong|right|safe|safer|unsafe|dangerous|decent|respectable|problem|ghetto|high[- ]crime)\s+(?:neighbou?rhoods?|areas?|parts? of town|side of town|zip ?codes?|postcodes?|postal codes?|districts?|suburbs?|estates?|communities)\b/gi, axis: ['socioeconomic', 'race_ethnicity'], score: 0.65, explanation: 'Neighbourhood used as a coded proxy for race or class.', suggestion: 'objective, individual criteria' },
  { re: /\b(?:urban|inner[- ]city|ghetto|hood|project|welfare|section[- ]8) (?:applicants?|candidates?|tenants?|borrowers?|youths?|kids|customers?|clientele|crowd|types?|families|people)\b/gi, axis: ['race_ethnicity', 'socioeconomic'], score: 0.7, explanation: 'Coded label ("urban", "inner-city") used for people; a common proxy for race or class.', suggestion: 'applicants' },
  { re: /\bable[- ]bodied (?:only|candidates|applicants|people|workers)\b|\b(?:no|free of|without) (?:any )?(?:disabilit(?:y|ies)|medical conditions?|health (?:issues|problems|conditions)|mental health (?:issues|history|problems))\b/gi, axis: ['disability'], score: 0.65, explanation: 'Excludes people with disabilities or health conditions without a job-related reason.' },
  { re: /\bneed not apply\b|\b(?:locals?|natives?|citizens?|men|women|whites?|christians?) only\b|\bonly (?:hire|rent to|lend to|accept|consider) (?:locals?|natives?|men|women|whites?|christians?|young|younger|married)\b/gi, axis: ['nationality'], score: 0.8, explanation: 'Excludes a group outright.' },
  { re: /\b(?:prioriti[sz]e|prefer|favou?r|focus on|target|only|avoid|exclude|screen out|steer clear of|rather than|over)\b.{0,80}?\b(?:established|owner[- ]occupied|affluent|upmarket|leafy|nicer|better[- ]off|stable|respectable|rental[- ]heavy|deprived|poorer|council|social housing|low[- ]income|high[- ]crime|rough|wealthy|quiet)\b[\w ,-]{0,30}?\b(?:neighbou?rhoods?|areas?|districts?|postcodes?|zip ?codes?|estates?|suburbs?|parts of town)\b/gi, axis: ['socioeconomic', 'race_ethnicity'], score: 0.65, explanation: 'Selection by neighbourhood or postcode, a proxy for class or race.', suggestion: 'objective, individual criteria' },
  { re: /\b(?:more|less|too|very)\s+(?:European|Western|white|ethnic|exotic|urban|African|Asian|foreign|Caucasian|Black)[- ](?:look(?:ing)?|features|appearance|sounding)\b|\b(?:European|Western|Caucasian)[- ]looking\b|\b(?:features|looks?|skin|hair) (?:reads?|comes? across|looks?) (?:as )?(?:less|more|too) (?:premium|professional|classy|upmarket|mainstream)\b/gi, axis: ['race_ethnicity', 'appearance'], score: 0.7, explanation: 'Appearance coded by ethnicity ("a more European look") used as a selection criterion.' },
  { re: /\b(?:is|being|are) (?:openly )?(?:gay|lesbian|bisexual|trans|transgender|queer|muslim|jewish|disabled|pregnant)\b[^.;]{0,40}?\b(?:might|may|could|would|will)\s+(?:\w+\s+){0,2}?(?:make|put|upset|alienate|offend|confuse|scare|bother)\b/gi, axis: [], score: 0.7, explanation: 'A person\'s identity treated as a liability with clients or colleagues.' },
  { re: /\beven (?:your |a |my |his |their |the )?(?:wife|girlfriend|grandma|grandmother|granny|nan|mom|mum|mother|woman|girl|little sister|grandpa|grandfather|old man|old lady|pensioner)\b,?\s+(?:could|can|would|will|should be able to)\b/gi, axis: [], score: 0.7, explanation: '"Even your wife/grandma could…" implies a group is less capable.' },
  { re: /\b(?:skims?|skimming|hides?|hiding|disguises?|camouflages?|conceals?) (?:over )?(?:your |the )?(?:problem areas|lumps and bumps|wobbly bits|flaws)\b/gi, axis: ['appearance'], score: 0.6, explanation: 'Treats a body type as a flaw to hide ("skims over problem areas").', suggestion: 'describe the cut and fit' },
  { re: /\b(?:(?:gay|homosexual|alternative|lgbt\w*) lifestyle|whether (?:this|it|his orientation|her orientation) is (?:just )?a phase|(?:being gay|his orientation|her orientation|their orientation|sexuality) (?:is|was) (?:just )?a phase)\b/gi, axis: ['sexual_orientation'], score: 0.7, explanation: 'Treats sexual orientation as a lifestyle or a phase.' },
  { re: /\breal men\b|\bman up\b|\bman's job\b|\bwoman's (?:job|place|work)\b|\bwomen's work\b|\bjob for (?:a man|men|a woman|women|the boys|the girls)\b|\blike a girl\b|\bthrow(?:s)? like a\b/gi, axis: ['gender'], score: 0.65, explanation: 'Gendered role expectation ("real men", "a man\'s job").' },
  { re: /\b(?:the )?(?:right|wrong|better|good|certain|rough|rougher|undesirable|unsavou?ry|sketchy|dodgy|lower[- ]class|low[- ]class) (?:kind of |sort of |type of |class of )?(?:crowd|people|clientele|demographic|element|types?)\b(?! (?:for the job|skills|experience|tools|data|questions?))/gi, axis: ['socioeconomic', 'race_ethnicity'], score: 0.55, explanation: 'Coded wording ("the right crowd", "the wrong element") that sorts people by class or race.' },
  { re: /\b(?:like|typical of|just like|so|such a) (?:a )?(?:woman|women|girl|girls|man|men|boomer|boomers|millennial|millennials|immigrant|immigrants|foreigner|foreigners)\b(?! (?:who|that|and|or|in|of|with|from|to|on|at))/gi, axis: [], score: 0.55, explanation: 'Behaviour attributed to a group identity ("typical of a woman").' },
];

/** Whether any coded form occurs in a sentence: one scan instead of one per form. */
const CODED_ANY = anyOf(CODED.map((c) => c.re));

const AXIS_OF_CODED_GENERIC = (m: string): Axis[] =>
  /\b(?:gay|lesbian|bisexual|queer)\b/i.test(m) ? ['sexual_orientation'] : /\b(?:trans|transgender)\b/i.test(m) ? ['gender'] : /\b(?:muslim|jewish)\b/i.test(m) ? ['religion'] : /\bdisabled\b/i.test(m) ? ['disability'] : /pregnant|wife|girlfriend|mom|mum|mother|woman|women|girl|sister|lady|man\b|men\b/i.test(m) ? ['gender'] : /boomer|millennial|grand|granny|nan\b|pensioner|old/i.test(m) ? ['age'] : /immigrant|foreigner/i.test(m) ? ['nationality'] : [];

// A group blamed for decline ("since immigrants moved in the area has gone downhill").
const DECLINE = /\b(?:gone downhill|went downhill|going downhill|gone to the dogs|gone to pot|ruined|taken over|overrun|changed for the worse|brought (?:down|crime|problems)|bring (?:down|crime|problems)|lower(?:s|ed)? (?:the )?(?:tone|standards|property values)|drag(?:s|ged)? down|declin(?:e|ed|ing)|deteriorat\w+)\b/i;
// "Like most women in admin roles, she was nurturing"
const LIKE_QUANT = /\blike (?:most|all|many|every|a typical|other|so many)\s+$/i;
const TRAIT_ANY = new RegExp(`\\b(?:is|was|are|were|'s|'re|seems?|gets?|tends? to be)\\s+(?:\\w+\\s+){0,2}?(?:${TRAIT_RE})\\b|\\b(?:hates?|loves?|can't|cannot|won't|struggles?|lacks?)\\b`, 'i');
// Anaphors that stand for the group as a whole: "that community", "those people" generalise even when the antecedent
// was specific ("your gay employees … that community generally is").
const GROUP_ANAPHOR = String.raw`th(?:at|is|ose|ese) (?:community|communities|crowd|lot|demographic|kind of people|type of people|sort of people)|those people|these people|such people|people like (?:that|them|those)|their kind`;
const THEY_IN = new RegExp(String.raw`\b(?:they(?:'re)?|${GROUP_ANAPHOR})\b`, 'gi');
/** Whether THEY_IN matches at all. */
const THEY_WORD = new RegExp(String.raw`\b(?:they|${GROUP_ANAPHOR})\b`, 'i');
const GROUP_ANAPHOR_RE = new RegExp(String.raw`^(?:${GROUP_ANAPHOR})$`, 'i');
// "how promiscuous that community is": the trait comes before its subject
const TRAIT_BEFORE = new RegExp(`\\b(?:how|so|such)\\s+(?:[a-z]+ly\\s+)?(?:${TRAIT_RE})\\s+$`, 'i');
const COPULA_AFTER = /^\s*(?:[a-z]+ly\s+|all\s+)?(?:is|are|were|can be|tend to be|seem|get)\b/i;

// Recommendation bias: a decision verb right before the group ("prefer …", "screen out …", "quote higher premiums
// for …", "keep security posted near …", "better entrusted to a man").
const REC_BEFORE = /\b(?:prefer(?:ring)?|favou?r(?:ing)?|prioriti[sz](?:e|ing)|deprioriti[sz](?:e|ing)|avoid(?:ing)?|exclude|screen(?:ing)? out|weed(?:ing)? out|filter(?:ing)? out|reject(?:ing)?|turn(?:ing)? (?:away|down)|steer(?:ing)? clear of|steer|rank (?:\w+ )?(?:lower|below)|keep (?:[\w-]+ ){0,3}?(?:away from|out of|off)|watch|monitor|keep an eye on|follow|search|scrutini[sz]e|shortlist(?:ing)?|(?:charge|quote|apply|impose|require|set|add|demand|run|give)\s+(?:[\w-]+\s+){0,3}?(?:higher|lower|stricter|extra|additional|tougher|larger|closer|enhanced|heavier)\s+(?:[\w-]+\s+){0,3}?(?:for|to|on|from|with|against)|(?:posted|stationed|placed|positioned) (?:near|around|by)|(?:better|best|more) (?:entrusted|left|handled|suited|done|given|assigned|filled) (?:to|by|for))\s+(?:[\w-]+,?\s+){0,3}?$/i;
const REC_VERB = /\b(?:prefer|favou?r|prioriti[sz]e|choose|pick|hire|select|shortlist|offer (?:it|the (?:role|job|position))|give (?:it|the (?:role|job|position)))\b/i;
const OVER_BEFORE = /\b(?:over|rather than|instead of|ahead of)\s+(?:[\w-]+\s+){0,2}?$/i;
// "X rarely match the drive of younger applicants", "adapt as quickly as a recent graduate"
const THAN_BEFORE = /\b(?:more|less) (?:seriously|credibl[ey]|readily|easily|convincing(?:ly)?|persuasive(?:ly)?) (?:from|coming from|by|to)\s+(?:a |an |the )?(?:\w+\s+)?$|\b(?:[a-z]+er|more \w+|less \w+|better|worse) than\s+(?:(?:most|many|typical|the|other|their|a|an|our)\s+)?$|\bas \w+(?: \w+)? as\s+(?:a |an |the |most )?$|\b(?:match|matching|matches|rival|equal) the \w+(?: \w+)? of\s+(?:(?:most|many|typical|the|other|their|a|an|our)\s+)?$/i;
// Contexts where a group-specific action is support, law or medicine, not bias.
const SUPPORTIVE = /\b(?:outreach|discriminat\w*|exclusion|systemic|structural|historic(?:al|ally)?|vulnerab\w*|health risks?|support(?:ing|ive)?|accessib\w*|adjustments?|accommodat\w*|screening|vaccin\w*|eligib\w*|under-?represented|mentor\w*|scholarships?|bursar\w*|inclusion|inclusive|diversity|equal(?:ly)?|equity|barriers?|safeguard\w*|patients?|clinical|medical|dose|diagnos\w*|symptoms?|risk factors?|statistic\w*|survey|data shows?|census)\b/i;
const MEDICAL = /\b(?:patients?|clinical|medical|screening|scan|dose|diagnos\w*|symptoms?|vaccin\w*|carrier|prevalen\w*|incidence)\b/i;
const EXCLUSION_GERUND = /\b(?:ignoring|excluding|neglecting|failing to (?:serve|reach|hire|include)|losing|not serving|turning away|without)\s+(?:[\w-]+\s+){0,3}?$/i;

// Rates and evidence in the sentence: "tend to drive shorter journeys, which have higher crash rates per mile"
const STATISTIC = /\b(?:rates?|per (?:mile|capita|head|1,?000|100,?000)|on average|average|data|statistic\w*|studies|study|research|survey\w*|evidence|census|%|percent)\b/i;
const PROTECTED_CHARACTERISTIC = /\b(?:race|colou?r|religion|belief|sex|gender(?: identity)?|age|disability|marital status|pregnancy|maternity|national origin|nationality|ethnicity|ethnic origin|sexual orientation|caste|ancestry|familial status)\b/gi;
const NATIVE_REQUIREMENT = /\b(?:must|required?|requirements?|only|seeking|looking for|candidates?|applicants?|hire|hiring|recruit\w*|role|position|job|essential|preferred|prefer|we want|needs? to be|shortlist\w*|screen\w*)\b/i;

const SUGGEST = 'Describe individuals by their own qualifications or behaviour instead of a group generalisation.';

// A group left out of coverage for a dismissive reason ("I've left out same-sex couples – they're a niche", "skip
// captions – the number of deaf employees is too small"): representation bias in one sentence. Small-number
// suppression for anonymity, and advice not to exclude, are not.
const EXCLUDE_VERB = /\b(?:left out|leave out|leaving out|leaves out|skip(?:s|ped|ping)?|drop(?:s|ped|ping)?|exclud(?:e|es|ed|ing)|omit(?:s|ted|ting)?|not (?:include|including|included|cover|covering|covered|target|targeting)|won't (?:include|cover|target|bother with)|no need (?:for|to include|to cover|to target)|ignor(?:e|ed|ing))\b/i;
const DISMISS = /\b(?:(?:a |too )?niche|too (?:small|few|rare|costly|expensive) to|not worth|isn't worth|aren't worth|won't move the (?:numbers|needle)|(?:don't|doesn't) move the needle|not (?:really )?(?:our|the) (?:customers?|market|audience|target|core|demographic|segment|clientele)|(?:just |only )?add noise|(?:political|woke) agenda|not a priority|temporary and|churn back|will churn|can ask (?:a colleague|someone|for help)|(?:don't|doesn't) (?:matter|count)|edge cases?|hardly any of them|not profitable|low[- ]value (?:customers?|segment)|already covers? (?:that|them|it)|mostly (?:male|female|men|women|young|white)|(?:a |too )?small (?:share|number|minority|segment|group)(?: overall)?)\b/i;
const EXCLUDE_NEGATED = /\b(?:don't|do not|never|avoid|shouldn't|should not|must not|rather than|instead of|without|not to)\s+(?:\w+\s+){0,2}?(?:leave|leaving|skip|skipping|drop|dropping|exclud\w*|omit\w*|ignor\w*)|\b(?:anonym\w*|privacy|confidential\w*|re-?identif\w*|statistic\w*|significan\w*|sample size|suppress\w*|disclosure)\b/i;

function exclusionFinding(text: string, s: { start: number; end: number; text: string }, mentions: GroupMention[], next?: string): Finding | undefined {
  if (!EXCLUDE_VERB.test(s.text) || EXCLUDE_NEGATED.test(s.text)) return undefined;
  // the reason may follow in the next sentence ("I've left out X. It's a niche segment …")
  const reason = DISMISS.test(s.text) || (next !== undefined && /^\s*(?:it's|it is|they're|they are|that's|that is|this is|these are|the (?:group|segment|number|share))\b/i.test(next) && DISMISS.test(next) && !EXCLUDE_NEGATED.test(next));
  if (!reason) return undefined;
  const m = mentions[0]!;
  return {
    detector: 'stereotype',
    detector_version: STEREOTYPE_VERSION,
    bias_type: [m.axis, 'representation'],
    score: 0.7,
    explanation: `Leaves out ${m.text.trim()} for a dismissive reason (too few, a niche, not worth it): uneven coverage of a group.`,
    spans: [span(text, s.start, s.end)],
    suggestion: 'Cover the group, or state a reason that does not rest on its size or worth to the business.',
    metric: 'stereotype_score',
  };
}

function attribution(rest: string): { kind: string; score: number } | undefined {
  if (BENIGN.test(rest) || BENIGN_VERB.test(rest)) return undefined;
  for (const p of PREDICATES) if (p.re.test(rest)) return { kind: p.kind, score: p.score };
  return undefined;
}

const THEY_SUBJECT = /^(?:they|these (?:people|candidates|applicants|workers|employees|folks|groups)|such (?:people|candidates|applicants|workers|employees)|those people)\b/i;
// Quantified subject without a copula: "all women want…", "every immigrant…".
const QUANTIFIED_VERB = /^[\s,]*(?:\w+\s+){0,2}?(?:are|is|want|need|think|believe|love|hate|prefer|expect|can't|cannot|won't|don't|do|have|lack|struggle|avoid|take|get|will|would|should)\b/i;

function finding(text: string, m: GroupMention, end: number, score: number, kind: string): Finding {
  return {
    detector: 'stereotype',
    detector_version: STEREOTYPE_VERSION,
    bias_type: [m.axis, 'stereotype'],
    score,
    explanation: `Generalisation (${kind}) about ${m.text.trim()}: attributes a trait or behaviour to the whole group.`,
    spans: [span(text, m.start, Math.max(m.end, end))],
    suggestion: SUGGEST,
    metric: 'stereotype_score',
  };
}

export function detectStereotypes(doc: PreparedText): Finding[] {
  const { text, sentences, mentionsBySentence, quotes } = doc;
  const findings: Finding[] = [];
  let prevMentions: GroupMention[] = [];
  for (const s of sentences) {
    const mentions = mentionsBySentence[s.index] ?? [];
    const lead = s.text.match(THEY_SUBJECT);
    let coded: boolean | undefined;
    // Only a sentence with a mention, a "they" after a sentence about a group, or a coded form can give a finding;
    // the others skip the framing tests (the costliest regexes here).
    const mayFind = mentions.length > 0 || (prevMentions.length > 0 && (lead !== null || THEY_WORD.test(s.text))) || (coded = testAny(CODED_ANY, s.text));
    const meta = !mayFind || hasMetaCue(s.text) || isRebuttal(sentences[s.index + 1]?.text);
    if (!meta) {
      const seen = new Set<string>();
      // Group mention + predicate.
      const candidates: { m: GroupMention; restStart: number }[] = mentions.map((m) => ({ m, restStart: m.end }));
      // "They are naturally…" right after a sentence about a group.
      if (lead && prevMentions.length > 0 && mentions.length === 0) {
        const g = prevMentions[prevMentions.length - 1]!;
        candidates.push({ m: { ...g, start: s.start, end: s.start + lead[0].length, text: lead[0], specific: false, quantified: false }, restStart: s.start + lead[0].length });
      }
      // "…, they usually lack…" later in the sentence refers back to the group
      const anchor = mentions.find((m) => !m.specific) ?? (mentions.length === 0 ? prevMentions.find((m) => !m.specific) : undefined);
      const anyAnchor = anchor ?? mentions[0] ?? prevMentions[0];
      if (anyAnchor) {
        for (const t of matchesOf(THEY_IN, s.text)) {
          const at = s.start + t.index;
          if (at === s.start && lead) continue;
          // a plain "they" needs a generic antecedent; a group anaphor generalises by itself
          if (!anchor && !GROUP_ANAPHOR_RE.test(t[0])) continue;
          if (mentions.length && at < (anchor ?? anyAnchor).end) continue;
          candidates.push({ m: { ...(anchor ?? anyAnchor), start: at, end: at + t[0].length, text: t[0], specific: false, quantified: false }, restStart: at + t[0].length });
        }
      }
      for (const m of mentions) {
        if (m.specific || insideQuote(quotes, m.start, m.end)) continue;
        const before = text.slice(Math.max(s.start, m.start - 25), m.start);
        const after = text.slice(m.end, s.end);
        const key = `${m.axis}:${s.index}`;
        if (LIKE_QUANT.test(before) && TRAIT_ANY.test(after)) {
          seen.add(key);
          findings.push(finding(text, m, Math.min(s.end, m.end + 120), 0.8, 'like-most generalisation'));
        } else if (!SUPPORTIVE.test(s.text) && (REC_BEFORE.test(text.slice(Math.max(s.start, m.start - 70), m.start)) || (OVER_BEFORE.test(before) && REC_VERB.test(text.slice(s.start, m.start))))) {
          seen.add(key);
          findings.push(finding(text, m, Math.min(s.end, m.end + 80), 0.7, 'recommendation that treats the group differently'));
        } else if (THAN_BEFORE.test(text.slice(Math.max(s.start, m.start - 60), m.start)) && !/\d|%|\bas (?:well|good|capable|likely) as,? or\b/.test(s.text) && !SUPPORTIVE.test(s.text) && !/\b(?:common|prevalent|risk|likely to be diagnosed)\b/i.test(s.text)) {
          seen.add(key);
          findings.push(finding(text, m, Math.min(s.end, m.end + 60), 0.7, 'comparison that ranks groups'));
        } else if (DECLINE.test(s.text) && !/\b(?:ag(?:e|ing) population|population|numbers?|share|rates?|enrol+ment|participation|births?|costs?|prices?|revenue|sales|demand)\b.{0,30}\bdeclin/i.test(s.text)) {
          seen.add(key);
          findings.push(finding(text, m, s.end, 0.7, 'decline attributed to a group'));
        }
      }
      for (const { m, restStart } of candidates) {
        if (insideQuote(quotes, m.start, m.end)) continue;
        let rest = text.slice(restStart, Math.min(s.end, restStart + 160));
        // possessive: "women's earnings are typically less stable"
        if (/['’]s$/i.test(m.text) || /^['’]s\b/.test(rest)) rest = rest.replace(/^(?:['’]s)?\s+\w+(?:\s+(?!are\b|is\b)\w+)?/, '');
        // a following group joined by "and"/"or" shares the predicate ("Men and women are…" is compared later)
        const joined = rest.match(/^\s*(?:,|[–—-]\s*(?:and|or)|and|or|&)\s/) ? '' : rest;
        let att = attribution(joined);
        if (!att) {
          // a coordinated second predicate of the same subject ("are pleasant on the phone but generally lack …")
          const co = joined.match(/^[^,;.]{0,60}?\b(?:but|and|yet|though|although)\s+(?=(?:also|often|usually|generally|typically|still|tend|rarely|seldom|lack|can't|cannot|struggle|are|is|may|might|will|would|don't|do not)\b)/i);
          if (co) att = attribution(joined.slice(co[0].length));
        }
        if (!att && TRAIT_BEFORE.test(text.slice(Math.max(s.start, m.start - 50), m.start)) && COPULA_AFTER.test(rest)) att = { kind: 'explicit', score: 0.8 };
        if (!att && m.quantified && QUANTIFIED_VERB.test(joined) && !BENIGN.test(joined) && !BENIGN_VERB.test(joined) && !/^[\s,]*(?:are|is|were|will be|can be|must be|should be|may be)\s+(?:\w+ed|\w+en|given|able|eligible|welcome|required|expected|entitled|invited|encouraged)\b/i.test(joined)) att = { kind: 'quantified', score: 0.75 };
        if (!att) continue;
        if (att.kind === 'explicit' && /^[^.;]{0,40}?\btends? to (?!be\b)/i.test(joined) && STATISTIC.test(s.text) && !TRAIT_WORD.test(joined.slice(0, 80))) continue;
        if (m.specific && att.kind !== 'explicit') continue;
        if ((att.kind === 'differential' || att.kind === 'prescriptive' || att.kind === 'consequence') && MEDICAL.test(s.text)) continue;
        if (att.kind === 'consequence' && EXCLUSION_GERUND.test(text.slice(Math.max(s.start, m.start - 40), m.start))) continue;
        // "Men and women are equally…" — comparison that asserts equality
        // ("both" and "alike" count only right after the subject, not in "… frustration on both sides"; a negated
        // comparison such as "don't take the same care as" is not an equality)
        if ((/\b(?:equally|both|alike)\b/i.test(rest.slice(0, 30)) || /\b(?:the same|as capable as|as good as|no (?:less|more|different))\b/i.test(rest.slice(0, 80))) && !/(?:\bnot|\bnever|n't)\s+(?:\w+\s+){0,2}?(?:the same|as)\b/i.test(rest.slice(0, 80))) continue;
        const key = `${m.axis}:${s.index}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const predEnd = Math.min(s.end, restStart + Math.max(20, rest.search(/[.;!?]|$/)));
        const score = clamp01(att.score * (m.specific ? 0.6 : 1) * (/\b(?:some|many|a number of|certain)\s+$/i.test(text.slice(Math.max(0, m.start - 20), m.start)) ? 0.75 : 1));
        findings.push({
          detector: 'stereotype',
          detector_version: STEREOTYPE_VERSION,
          bias_type: [m.axis, 'stereotype'],
          score,
          explanation: `Generalisation (${att.kind}) about ${m.text.trim()}: attributes a trait or behaviour to the whole group.`,
          spans: [span(text, m.start, Math.max(m.end, predEnd))],
          suggestion: SUGGEST,
          metric: 'stereotype_score',
        });
      }
      if (mentions.length) {
        const ex = exclusionFinding(text, s, mentions, sentences[s.index + 1]?.text);
        if (ex) findings.push(ex);
      }
      // Coded forms, scanned one by one only when the joined test saw one.
      coded ??= testAny(CODED_ANY, s.text);
      // a list of protected characteristics ("race, religion, sex, age or marital status") is policy, not a proxy
      if (coded && (s.text.match(PROTECTED_CHARACTERISTIC) ?? []).length >= 3) coded = false;
      for (const c of coded ? CODED : []) {
        for (const mm of matchesOf(c.re, s.text)) {
          const start = s.start + mm.index;
          const end = start + mm[0].length;
          if (insideQuote(quotes, start, end)) continue;
          // "native speaker" excludes only as a requirement on people ("translations reviewed by native speakers" is not one)
          if (c.axis.includes('nationality') && c.re.source.startsWith('\\bnative') && (/\b(?:or (?:equivalent|fluent)|not required|isn't required|is not required|no requirement|fluency|proficien)/i.test(s.text) || !NATIVE_REQUIREMENT.test(s.text))) continue;
          const axes = c.axis.length ? c.axis : AXIS_OF_CODED_GENERIC(mm[0]);
          findings.push({
            detector: 'stereotype',
            detector_version: STEREOTYPE_VERSION,
            bias_type: [...axes, axes.length ? 'stereotype' : 'representation', ...(axes.length ? [] : ['stereotype'])].filter((v, i, a) => a.indexOf(v) === i),
            score: c.score,
            explanation: c.explanation,
            spans: [span(text, start, end)],
            ...(c.suggestion ? { suggestion: c.suggestion } : {}),
            metric: 'stereotype_score',
          });
        }
      }
    }
    if (mentions.length) prevMentions = mentions;
    else if (!lead) prevMentions = [];
  }
  return findings;
}

export const stereotypeDetector: Detector = {
  name: 'stereotype',
  version: STEREOTYPE_VERSION,
  detect: (doc) => detectStereotypes(doc),
};
