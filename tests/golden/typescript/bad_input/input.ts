export interface Broken {
	a: string
	b: Missing;
	c: Kind.Nope;
	fn(): void;
}
export interface Broken {
	x: string;
}
export const enum Kind {
	A = 'a',
	B = foo(),
}
export interface Half {
	y: string
