// The interface's words: the two language files (lang/en.json, lang/bn.json), the language chosen and the digits
// chosen, both remembered in the browser. No page writes a word of the interface but through `t`.

const LANGUAGES = ['en', 'bn'];
const BENGALI_DIGITS = '০১২৩৪৫৬৭৮৯';

const state = { lang: 'en', bengaliDigits: false, strings: {}, listeners: [] };

function remembered(key, fallback) {
  try {
    return window.localStorage.getItem(key) ?? fallback;
  } catch {
    return fallback;
  }
}

function remember(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // A browser that keeps nothing (a private window with storage off) still switches, for this page.
  }
}

/** Loads both language files and applies the language remembered (or the browser's, for a first visit). */
export async function load() {
  const files = await Promise.all(LANGUAGES.map((lang) => fetch(`/lang/${lang}.json`).then((r) => r.json())));
  LANGUAGES.forEach((lang, i) => {
    state.strings[lang] = files[i];
  });
  const browser = (navigator.language || '').toLowerCase().startsWith('bn') ? 'bn' : 'en';
  state.lang = remembered('khela.lang', browser);
  if (!LANGUAGES.includes(state.lang)) state.lang = 'en';
  state.bengaliDigits = remembered('khela.digits', state.lang === 'bn' ? 'bengali' : 'latin') === 'bengali';
  apply();
}

/** The language shown: `en` or `bn`. */
export function lang() {
  return state.lang;
}

/** Whether numbers are written in Bengali digits. */
export function bengaliDigits() {
  return state.bengaliDigits;
}

/** Shows the interface in `lang`, remembered for the next visit. */
export function setLang(lang) {
  state.lang = lang;
  remember('khela.lang', lang);
  apply();
}

/** Writes numbers in Bengali digits (০১২…) or in Latin ones, remembered. */
export function setBengaliDigits(on) {
  state.bengaliDigits = on;
  remember('khela.digits', on ? 'bengali' : 'latin');
  apply();
}

/** Calls `listener` after every change of language or digits. */
export function onChange(listener) {
  state.listeners.push(listener);
}

/** `text` with its digits in the digits chosen. */
export function digits(text) {
  const s = String(text);
  return state.bengaliDigits ? s.replace(/[0-9]/g, (d) => BENGALI_DIGITS[d]) : s;
}

/** A number for people: `digits` of `value` with at most `places` decimals, a true minus sign. */
export function num(value, places = 0) {
  const rounded = Number(value.toFixed(places));
  const text = Object.is(rounded, -0) ? '0' : String(rounded);
  return digits(text.replace('-', '−'));
}

/**
 * The string `key` in the language shown, with `{name}` replaced by `vars.name` (numbers in the digits chosen).
 * A key missing from a language file is a fault the tests catch; here it shows as the key itself.
 */
export function t(key, vars = {}) {
  const text = state.strings[state.lang]?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = vars[name];
    if (value === undefined) return `{${name}}`;
    return typeof value === 'number' ? num(value, 2) : digits(value);
  });
}

/** Fills every element under `root` marked `data-i18n` (its text), `data-i18n-label` (aria-label) and
 * `data-i18n-title` (title) with its string. */
export function apply(root = document) {
  document.documentElement.lang = state.lang;
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  if (root === document) for (const listener of state.listeners) listener();
}
