export interface DirectoryEntry {
	name: string;
	type: 'file' | 'directory';
	mode: 1 | 2 | 4;
}
export type Level = 'low' | 'high';
