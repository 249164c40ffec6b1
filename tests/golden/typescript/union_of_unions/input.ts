export interface A { type: "a" }
export interface B { type: "b" }
export interface C { type: "c" }
export type AB = A | B;
/** Written nested: one flat union. */
export type All = (A | (B | C)) | A;
/** A union that names another union keeps it as one variant; the tags are theirs. */
export type Nested = AB | C;
