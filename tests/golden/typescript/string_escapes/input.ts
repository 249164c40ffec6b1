export interface Escapes {
  "quoted key": string;
  'it\'s': number;
  "back\\slash": boolean;
  /** One backslash, a quote, a newline, an é and a smiley. */
  value: '\\' | "\"" | "\n" | "\u00e9" | "\u{1F600}";
}
