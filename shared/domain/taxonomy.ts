// The controlled vocabulary for bias_type and human_bias_tag (FR-BIAS-4.1.3). Seeded into Firestore
// (`bias_taxonomy/{bias_key}`) and emulator-data; tenants' admins may add entries through GraphQL.
export interface TaxonomyEntry {
  bias_key: string;
  description: string;
  severity_level: 1 | 2 | 3 | 4 | 5;
  kind: 'axis' | 'mechanism' | 'domain';
}

export const DEFAULT_TAXONOMY: readonly TaxonomyEntry[] = [
  { bias_key: 'gender', kind: 'axis', severity_level: 4, description: 'Treats people differently by gender or gender identity, or assumes a default gender.' },
  { bias_key: 'race_ethnicity', kind: 'axis', severity_level: 5, description: 'Treats people differently by race, ethnicity or skin colour.' },
  { bias_key: 'religion', kind: 'axis', severity_level: 4, description: 'Treats people differently by religion or belief.' },
  { bias_key: 'age', kind: 'axis', severity_level: 4, description: 'Treats people differently by age (ageism toward young or old).' },
  { bias_key: 'disability', kind: 'axis', severity_level: 5, description: 'Treats people differently by disability, health or neurodivergence.' },
  { bias_key: 'nationality', kind: 'axis', severity_level: 4, description: 'Treats people differently by nationality, origin, accent or immigration status.' },
  { bias_key: 'socioeconomic', kind: 'axis', severity_level: 3, description: 'Treats people differently by income, class, education or neighbourhood.' },
  { bias_key: 'sexual_orientation', kind: 'axis', severity_level: 4, description: 'Treats people differently by sexual orientation.' },
  { bias_key: 'appearance', kind: 'axis', severity_level: 3, description: 'Treats people differently by body type or looks.' },
  { bias_key: 'stereotype', kind: 'mechanism', severity_level: 4, description: 'Attributes a trait, ability or behaviour to a whole group (explicit, benevolent or coded).' },
  { bias_key: 'representation', kind: 'mechanism', severity_level: 3, description: 'Leaves out, over-represents or unevenly covers groups.' },
  { bias_key: 'language', kind: 'mechanism', severity_level: 2, description: 'Gendered, exclusionary or dispreferred wording where neutral wording exists.' },
  { bias_key: 'toxicity', kind: 'mechanism', severity_level: 5, description: 'Hostile, demeaning or insulting language toward people or groups.' },
  { bias_key: 'sentiment_disparity', kind: 'mechanism', severity_level: 3, description: 'Describes comparable content warmly for one group and coldly for another.' },
  { bias_key: 'domain_profit_over_sustainability', kind: 'domain', severity_level: 3, description: 'Recommends dismissing environmental, safety or social cost purely for margin.' },
];

export const TAXONOMY_KEYS: ReadonlySet<string> = new Set(DEFAULT_TAXONOMY.map((t) => t.bias_key));
