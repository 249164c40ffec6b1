export interface Usage {
	tokens: number;
}
export interface Turn {
	/** Absent while streaming. */
	usage: Usage | undefined;
	maybe?: string;
	nullable: string | null;
	both?: number | null;
}
