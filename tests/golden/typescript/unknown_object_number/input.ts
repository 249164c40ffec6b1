export interface Bag {
	anything: unknown;
	someObject: object;
	count: number;
	big: bigint;
	flag: boolean;
	list: string[];
	generic: Array<number>;
	pair: [string, number];
}
