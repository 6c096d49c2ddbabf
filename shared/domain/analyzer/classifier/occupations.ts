// Occupation lists from WinoBias (Zhao et al., NAACL 2018), GitHub uclanlp/corefBias commit 0bce984,
// WinoBias/wino/data/{male,female}_occupations.txt. MIT License, Copyright (c) 2020 Natural Language
// Processing @UCLA; full text in ./LICENSE-winobias-occupations.txt. "male"/"female" is the gender the
// US labour statistics the authors used skew toward; used here only to build occupation×pronoun features.
export const MALE_OCCUPATIONS: readonly string[] = [
  'driver', 'supervisor', 'janitor', 'cook', 'mover', 'laborer', 'construction worker', 'chief', 'developer', 'carpenter',
  'manager', 'lawyer', 'farmer', 'salesperson', 'physician', 'guard', 'analyst', 'mechanic', 'sheriff', 'ceo',
];
export const FEMALE_OCCUPATIONS: readonly string[] = [
  'attendant', 'cashier', 'teacher', 'nurse', 'assistant', 'secretary', 'auditor', 'cleaner', 'receptionist', 'clerk',
  'counselor', 'designer', 'hairdresser', 'writer', 'housekeeper', 'baker', 'accountant', 'editor', 'librarian', 'tailor',
];
