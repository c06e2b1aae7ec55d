/** Splitting a file the way a job does, for tests of what the classifier finds and what each document is handed. */
import { AUTO_TYPE } from '../../src/modules/catalog/classification'
import { loadCatalog } from '../../src/modules/catalog/service'
import { builtinClassifier } from '../../src/modules/extraction/engines/builtin/classify'
import type { Engine } from '../../src/modules/extraction/engines/types'
import { inProcessExtractor } from '../../src/modules/extraction/extractor'
import { DEFAULT_READ_LIMITS, type DocumentText, type MediaType, type ReadLimits } from '../../src/modules/extraction/readers/types'
import { typesToRead } from '../../src/modules/extraction/service'

/** The catalog's types with their suggested fields, as a job without fields of its own takes them. */
const types = typesToRead(loadCatalog(), [])

/**
 * A file split as a job with `"split": true` and `"document_type": "auto"` splits it (the extractor
 * with the built-in classifier), with the reading the engine was handed for each document
 * it extracts: this engine answers nothing and keeps those readings, in order.
 */
export async function splitFile(content: Uint8Array, mediaType: MediaType, limits: ReadLimits = DEFAULT_READ_LIMITS) {
  const handed: DocumentText[] = []
  const engine: Engine = {
    name: 'reading-keeper',
    extract: async ({ document }) => {
      handed.push(document)
      return {}
    },
  }
  const output = await inProcessExtractor(engine, { classifier: builtinClassifier })({
    content,
    mediaType,
    documentType: AUTO_TYPE,
    issuedBySeller: false,
    fields: [],
    limits,
    typing: { mode: 'split', types },
  })
  if (output.kind !== 'documents') throw new Error(`a split answers documents, not ${output.kind}`)
  return { documents: output.documents, handed }
}
