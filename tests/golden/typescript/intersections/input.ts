export interface A { a: string; shared?: number }
export interface B { b: number }
/** Two named bases: the result extends both. */
export type Both = A & B;
/** A base narrowed by an inline object: `shared` becomes required and a literal. */
export type Narrowed = A & { shared: 1; extra: { deep: boolean } };
/** A branded primitive is the primitive on the wire. */
export type Branded = string & { __brand: "Id" };
/** An intersection distributes over a union. */
export type Distributed = (A | B) & { tag: "x" };
