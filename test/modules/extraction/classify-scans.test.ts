/**
 * Scans (issue 34): pages rendered by the tests, read through OCR (whose text is noisier than a
 * text layer's), are classified and split as their text versions are. Images and image-only PDFs.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { loadCatalog } from '../../../src/modules/catalog/service'
import { classifyFile } from '../../../src/modules/extraction/classifier'
import { builtinClassifier } from '../../../src/modules/extraction/engines/builtin/classify'
import { detectMediaType } from '../../../src/modules/extraction/readers'
import { DEFAULT_READ_LIMITS } from '../../../src/modules/extraction/readers/types'
import { type SampleDocument, sample, winAnsi } from '../../helpers/documents'
import { imagePdf, renderPages, toJpeg, toPng } from '../../helpers/images'
import { TEST_DIALECT } from '../../helpers/database'
import { splitFile } from '../../helpers/split'

/** No database here: the PostgreSQL run of test/modules would only read the same documents again. */
const ON_POSTGRES = TEST_DIALECT === 'postgres'

setDefaultTimeout(240_000)

const types = loadCatalog().classifiable()

/** A document's pages as scanned: rendered at 150 dpi, as printed on A4-wide paper. */
function scan(document: SampleDocument) {
  return renderPages(document.pages.map((lines) => ({ lines: lines.map(winAnsi), width: 595, fontSize: 9 })))
}

async function classify(bytes: Uint8Array) {
  return (await classifyFile(builtinClassifier, types, { content: bytes, mediaType: detectMediaType(bytes)!, limits: DEFAULT_READ_LIMITS })).classification
}

describe.skipIf(ON_POSTGRES)('a scanned document is its type', () => {
  test.each([
    ['invoice-de', 'JPEG'],
    ['payslip-fr', 'PNG'],
    ['passport-en', 'JPEG'],
  ] as const)('%s, as a %s scan', async (name, format) => {
    const [page] = await scan(sample(name))
    const classification = await classify(format === 'PNG' ? toPng(page!) : toJpeg(page!))
    expect(classification.documentType).toBe(sample(name).type)
  })
})

test.skipIf(ON_POSTGRES)('a scanned bundle (an image-only PDF) is split into its documents, each typed', async () => {
  const documents = [sample('prescription-de'), sample('bank-statement-en'), sample('contract-fr')]
  const pages = (await Promise.all(documents.map(scan))).flat()
  const pdf = await imagePdf(pages.map((page) => ({ png: toPng(page) })))
  const { documents: found } = await splitFile(pdf, detectMediaType(pdf)!)
  expect(found.map(({ firstPage, lastPage, classification }) => [firstPage, lastPage, classification.documentType])).toEqual([
    [1, 1, 'medical_prescription'],
    [2, 2, 'bank_statement'],
    [3, 3, 'contract'],
  ])
})
