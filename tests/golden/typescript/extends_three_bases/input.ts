interface HiddenBase {
	id: string;
}
export interface Named {
	name: string;
}
interface Timed {
	createdAt: number;
}
export interface Everything extends HiddenBase, Named, Timed {
	extra?: boolean;
}
