export interface ToolCall {
	toolName: string;
	/** Provider-specific metadata (MCP `_meta` convention). */
	_meta?: Record<string, unknown>;
}
