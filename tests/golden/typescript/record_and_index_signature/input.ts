export interface Config {
	values: Record<string, unknown>;
	labels?: Record<string, string>;
}
export interface Settings {
	[key: string]: unknown | undefined;
}
export interface Typed {
	fixed: string;
	[key: string]: string;
}
