/**
 * One document of a task's file as every step reads it (D249, D370): the extractor that answers
 * it, the job runner that reads it again with learned layouts and the service that stores it ask
 * here. With `auto`, the type found and that type's fields; else the job's type and fields. A
 * bundle's document is its own pages, page 1 being its first. No reader is loaded here: the job
 * runner, loaded at start, uses it (D150, D372).
 */
import type { JobField } from '../../lib/fields/model'
import { AUTO_TYPE } from '../catalog/classification'
import type { DocumentText } from './readers/types'

/** A catalog type as far as reading a document of it goes: its slug and the fields it reads (extractor.ts's TaskType). */
interface ReadType {
  slug: string
  read: JobField[]
}

/** What a job asks of its file: its type (or `auto`), whether it splits, its fields, and with `auto` or a split the catalog's types. */
export interface FileTask<Type extends ReadType> {
  documentType: string
  split: boolean
  fields: JobField[]
  types: readonly Type[]
}

/** A document found in the file: its pages (1-based) and its type's slug, null when no type fits `auto`. */
export interface FoundPart {
  firstPage: number
  lastPage: number
  documentType: string | null
}

/** How one found document is read: with `auto`, its catalog type; the fields it is read with (none when no type fits); its pages' reading. */
export function documentOf<Type extends ReadType, Reading extends DocumentText | undefined>(
  { documentType, split, fields, types }: FileTask<Type>,
  { firstPage, lastPage, documentType: found }: FoundPart,
  reading: Reading,
): { type: Type | undefined; fields: JobField[] | undefined; text: Reading } {
  const auto = documentType === AUTO_TYPE
  const type = auto ? types.find((candidate) => candidate.slug === found) : undefined
  return { type, fields: auto ? type?.read : fields, text: (split && reading ? pages(reading, firstPage, lastPage) : reading) as Reading }
}

/** Pages `first` to `last` (1-based) of a reading, with their word positions and second readings. */
export function pages(document: DocumentText, first: number, last: number): DocumentText {
  const slice = <T>(list: readonly T[]) => list.slice(first - 1, last)
  return {
    pages: slice(document.pages),
    ...(document.layout ? { layout: slice(document.layout) } : {}),
    ...(document.secondReading ? { secondReading: pages(document.secondReading, first, last) } : {}),
  }
}
