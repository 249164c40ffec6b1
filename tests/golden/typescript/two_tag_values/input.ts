export const enum QuestionKind {
	Text = 'text',
	Number = 'number',
	Integer = 'integer',
}
export interface TextQuestion {
	kind: QuestionKind.Text;
}
export interface NumberQuestion {
	kind: QuestionKind.Number | QuestionKind.Integer;
	/** @format float */
	min?: number;
}
export type Question = TextQuestion | NumberQuestion;
