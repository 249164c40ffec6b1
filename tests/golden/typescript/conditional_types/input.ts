export interface Table {
  open: { params: { path: string }; result: { handle: number } };
  close: { params: { handle: number }; result: null };
}
/** Distributed over the keys: one request object per method. */
export type Request<M extends keyof Table = keyof Table> = M extends unknown
  ? { method: M; params: Table[M]["params"] }
  : never;
export type StringsOf<T> = T extends string ? T : never;
/** `Extract` written by hand. */
export type OnlyStrings = StringsOf<"a" | 1 | "b" | true>;
export type NotNull = NonNullable<string | null | undefined>;
/** Not distributed: the whole union is checked at once. */
export type Checked = ["a" | "b"] extends [string] ? { ok: true } : { ok: false };
/** With `infer`: the element type of the array (`Unused` is `string`). */
export type ElementOf<T> = T extends (infer U)[] ? U : never;
export type Unused = ElementOf<string[]>;
