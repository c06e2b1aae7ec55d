/**
 * The account's accuracy (issue 33, D290–D296): per field, how the values read held up when a
 * person reviewed them, by confidence, and what a review threshold would have let through
 * unchecked, so that a user picks the threshold on their own documents.
 */
import { useEffect, useState } from 'preact/hooks'
import { api, call, useSchemasAndTypes } from './api.ts'
import type { paths } from './generated/api.ts'
import { Labeled } from './labeled.tsx'
import { TypeSelect } from './type-select.tsx'

type Accuracy = paths['/api/v1/accuracy']['get']['responses'][200]['content']['application/json']
type Tally = Accuracy['total']

/** Thresholds a user is likely to weigh, one click each. */
const CHOICES = [0.8, 0.9, 0.95, 0.99]

const percent = (share: number | null) => (share === null ? '—' : `${(share * 100).toFixed(1)} %`)

export function AccuracyScreen() {
  const [schemaId, setSchemaId] = useState('')
  const [documentType, setDocumentType] = useState('')
  const [since, setSince] = useState('')
  const [threshold, setThreshold] = useState('')
  const [accuracy, setAccuracy] = useState<Accuracy | null>(null)
  const [error, setError] = useState<string | null>(null)
  const { schemas, types } = useSchemasAndTypes(setError)

  useEffect(() => {
    const query = {
      ...(schemaId ? { schema_id: schemaId } : {}),
      ...(documentType ? { document_type: documentType } : {}),
      ...(since ? { since } : {}),
      ...(threshold ? { threshold } : {}),
    }
    call(api.GET('/api/v1/accuracy', { params: { query } })).then(
      (data) => {
        setAccuracy(data)
        setError(null)
      },
      (failure: Error) => setError(failure.message),
    )
  }, [schemaId, documentType, since, threshold])

  return (
    <>
      <h1 tabIndex={-1}>Accuracy</h1>
      <p class="note">
        How the values read from your documents held up when a person reviewed them (each job as its latest review left it). A value whose confidence is under
        the review threshold, or that breaks a sum, goes to a person; the rest pass unchecked. Choose the threshold by what it would have let through and how
        often that was right.
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <form class="row" onSubmit={(event) => event.preventDefault()}>
        <Labeled label="Schema">
          {(id) => (
            <select id={id} value={schemaId} onChange={(event) => setSchemaId(event.currentTarget.value)}>
              <option value="">Any schema</option>
              {schemas.map((schema) => (
                <option key={schema.id} value={schema.id}>
                  {schema.name}
                </option>
              ))}
            </select>
          )}
        </Labeled>
        <TypeSelect label="Document type" types={types} value={documentType} onChange={setDocumentType} any="Any type" />
        <Labeled label="Read since">{(id) => <input id={id} type="date" value={since} onChange={(event) => setSince(event.currentTarget.value)} />}</Labeled>
        <Labeled label="Review threshold">
          {(id) => (
            <input
              id={id}
              type="number"
              min={0}
              max={1}
              step={0.01}
              value={threshold}
              placeholder={accuracy ? String(accuracy.threshold) : '0.95'}
              onChange={(event) => setThreshold(event.currentTarget.value)}
            />
          )}
        </Labeled>
      </form>
      <fieldset class="choices">
        <legend>Try a threshold</legend>
        {CHOICES.map((choice) => (
          <button key={choice} type="button" class="quiet" aria-pressed={accuracy?.threshold === choice} onClick={() => setThreshold(String(choice))}>
            {choice}
          </button>
        ))}
      </fieldset>
      {accuracy === null ? (
        <p>Loading…</p>
      ) : accuracy.jobs === 0 ? (
        <p class="note">No reviewed jobs match. Review a job's values on the Jobs screen: each review counts here.</p>
      ) : (
        <>
          <p role="status" class="summary">
            {accuracy.jobs} reviewed {accuracy.jobs === 1 ? 'job' : 'jobs'}, {accuracy.total.reviewed} values. At the threshold {accuracy.threshold},{' '}
            {percent(accuracy.total.unchecked.share)} of the values would have passed unchecked, and {percent(accuracy.total.unchecked.precision)} of those were
            right.
          </p>
          <div class="scroll">
            <table class="rows accuracy">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Reviewed</th>
                  <th scope="col">Corrected</th>
                  <th scope="col">Missed</th>
                  <th scope="col">Right when read</th>
                  {accuracy.total.bands.map((band) => (
                    <th scope="col" class="band" key={band.from}>
                      {band.from}–{band.to}
                    </th>
                  ))}
                  <th scope="col">Unchecked at {accuracy.threshold}</th>
                  <th scope="col">Right of unchecked</th>
                </tr>
              </thead>
              <tbody>
                {accuracy.fields.map((field) => (
                  <Row key={field.key} name={field.key} tally={field} />
                ))}
              </tbody>
              <tfoot>
                <Row name="All fields" tally={accuracy.total} />
              </tfoot>
            </table>
          </div>
          <p class="note">
            Columns from 0 to 1: the share right of the values read at that confidence (how many right of how many). Missed: no value read where the reviewer
            gave one.
          </p>
        </>
      )}
    </>
  )
}

function Row({ name, tally }: { name: string; tally: Tally }) {
  return (
    <tr data-key={name}>
      <th scope="row">{name}</th>
      <td class="n">{tally.reviewed}</td>
      <td class="n">{tally.corrected}</td>
      <td class="n">{tally.missed}</td>
      <td class="n">{percent(tally.precision)}</td>
      {tally.bands.map((band) => (
        <td class="n" key={band.from} title={`${band.right} right of ${band.values}`}>
          {band.values ? `${percent(band.precision)} (${band.right}/${band.values})` : '—'}
        </td>
      ))}
      <td class="n">
        {percent(tally.unchecked.share)} ({tally.unchecked.values})
      </td>
      <td class="n">{tally.unchecked.values ? `${percent(tally.unchecked.precision)} (${tally.unchecked.right}/${tally.unchecked.values})` : '—'}</td>
    </tr>
  )
}
