export interface Page<T, C = string> { items: T[]; cursor?: C }
export interface Item { id: string }
export type Nullable<T> = T | null;
export type Tuple2<A, B> = [A, B];
/** One declaration per instantiation: PageString, PageItem. */
export interface StringPage { page: Page<string> }
export interface ItemPage { page: Page<Item, number> }
/** Aliases are expanded where they are used. */
export type Maybe = Nullable<Item>;
export type Pair = Tuple2<string, Item>;
/** A generic whose parameters all have defaults is also declared under its own name. */
export interface Defaulted<T = boolean> { value: T }
export type DefaultPage = Defaulted;
