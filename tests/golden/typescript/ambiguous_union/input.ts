export interface A {
	x?: string;
}
export interface B {
	x?: number;
}
export type AOrB = A | B;
