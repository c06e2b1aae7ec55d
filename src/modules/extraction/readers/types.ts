/** Documents as the engines see them: text, page by page (D22). */

export const MEDIA_TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html',
  markdown: 'text/markdown',
  text: 'text/plain',
} as const

export type MediaType = (typeof MEDIA_TYPES)[keyof typeof MEDIA_TYPES]

export const ACCEPTED_MEDIA_TYPES: MediaType[] = Object.values(MEDIA_TYPES)

export interface DocumentText {
  /** Text of each page in reading order, lines separated by "\n"; one entry for unpaged formats. */
  pages: string[]
}
