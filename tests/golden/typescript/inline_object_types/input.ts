export interface FileEdit {
	before: { uri: string; content?: string };
	after?: {
		uri: string;
		range?: { start: number; end: number };
	};
}
export interface Tool {
	inputSchema?: {
		type: 'object';
		properties?: Record<string, object>;
		required?: string[];
	};
}
