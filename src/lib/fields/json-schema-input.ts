/**
 * A schema's fields from a JSON Schema written for another tool (D97): an object whose properties
 * are strings (with `format: "date"` or `enum`), numbers, integers, booleans, enums, arrays of
 * strings (lists) and arrays of objects (tables, their columns one level deep). Anything else is a
 * validation error naming its path under /json_schema. Framework-free.
 */
import type { ColumnInput, FieldInput, Problem } from './model'
import { FIELD_KEY_PATTERN, MAX_COLUMNS, MAX_DESCRIPTION_LENGTH, MAX_FIELDS, MAX_LABEL_LENGTH } from './types'
import { pointerSegment } from '../text'

type Json = Record<string, unknown>

/** Keywords that only annotate: accepted anywhere and ignored. */
const ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'title', 'description', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly'])
const KEY = new RegExp(FIELD_KEY_PATTERN)
const MAX_LABEL = MAX_LABEL_LENGTH
const MAX_DESCRIPTION = MAX_DESCRIPTION_LENGTH

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const codePoints = (text: string) => [...text].length

class Problems {
  readonly details: Problem[] = []
  add(path: string, message: string): void {
    this.details.push({ path, message })
  }
}

/** The declared JSON types of a node, without "null" (a nullable value is still its type). */
function typesOf(node: Json, path: string, problems: Problems): string[] | undefined {
  const { type } = node
  if (type === undefined) return []
  const list = Array.isArray(type) ? type : [type]
  if (!list.every((item) => typeof item === 'string')) {
    problems.add(`${path}/type`, 'Expected a type name or an array of them')
    return undefined
  }
  return (list as string[]).filter((item) => item !== 'null')
}

function unsupportedKeywords(node: Json, allowed: string[], path: string, problems: Problems): void {
  for (const keyword of Object.keys(node))
    if (!ANNOTATIONS.has(keyword) && !allowed.includes(keyword))
      problems.add(`${path}/${pointerSegment(keyword)}`, `Unsupported keyword "${keyword}": see D97 for the subset that is read`)
}

/** The label and description of a property: `title` (else the key) and `description`. */
function texts(node: Json, key: string, path: string, problems: Problems): { label: string; description: string } {
  const label = node.title === undefined ? key : node.title
  const description = node.description === undefined ? '' : node.description
  if (typeof label !== 'string' || !/\S/.test(label) || codePoints(label) > MAX_LABEL)
    problems.add(`${path}/title`, `Expected a non-blank string of at most ${MAX_LABEL} characters`)
  if (typeof description !== 'string' || codePoints(description) > MAX_DESCRIPTION)
    problems.add(`${path}/description`, `Expected a string of at most ${MAX_DESCRIPTION} characters`)
  return { label: String(label), description: String(description) }
}

/** The patterns of the JSON Schema of a result (json-schema.ts) that say amount and currency: an export is read back. */
const PATTERN_TYPES: Record<string, 'amount' | 'currency'> = { '^-?[0-9]+(\\.[0-9]+)?$': 'amount', '^[A-Z]{3}$': 'currency' }

/**
 * A value that may also be null written as `anyOf: [schema, {type: "null"}]` (as a result's schema
 * writes every property) is read as that schema; the property's own title and description win.
 */
function withoutNull(node: Json): Json {
  const { anyOf, ...rest } = node
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return node
  const isNull = (item: unknown) => isObject(item) && item.type === 'null' && Object.keys(item).length === 1
  const value = anyOf.find((item) => !isNull(item))
  if (!isObject(value) || !anyOf.some(isNull)) return node
  return { ...value, ...rest }
}

/** The type part of one property; undefined (with problems added) when it is outside the subset. */
function typeOf(node: Json, path: string, problems: Problems, inTable: boolean): Pick<FieldInput, 'type' | 'values' | 'columns'> | undefined {
  const types = typesOf(node, path, problems)
  if (!types) return undefined
  if (node.enum !== undefined) {
    unsupportedKeywords(node, ['type', 'enum'], path, problems)
    const values = Array.isArray(node.enum) ? node.enum.filter((value) => value !== null) : undefined
    if (!values || values.length === 0 || !values.every((value) => typeof value === 'string' && /\S/.test(value))) {
      problems.add(`${path}/enum`, 'Expected an array of non-blank strings')
      return undefined
    }
    if (types.some((type) => type !== 'string')) problems.add(`${path}/type`, 'An enum is read as strings')
    return { type: 'enum', values: [...new Set(values as string[])] }
  }
  if (types.length === 0) unsupportedKeywords(node, ['type'], path, problems)
  if (types.length !== 1) {
    problems.add(`${path}/type`, types.length === 0 ? 'Expected a type' : 'Expected one type (besides "null")')
    return undefined
  }
  const [type] = types
  switch (type) {
    case 'string':
      unsupportedKeywords(node, ['type', 'format', 'pattern'], path, problems)
      if (node.pattern !== undefined) {
        const patterned = typeof node.pattern === 'string' && node.format === undefined ? PATTERN_TYPES[node.pattern] : undefined
        if (patterned) return { type: patterned }
        problems.add(`${path}/pattern`, "Only the patterns of a result's amounts and currencies are read")
        return undefined
      }
      if (node.format === undefined) return { type: 'text' }
      if (node.format === 'date') return { type: 'date' }
      problems.add(`${path}/format`, 'Only format "date" is read')
      return undefined
    case 'number':
    case 'integer':
      unsupportedKeywords(node, ['type'], path, problems)
      return { type: 'number' }
    case 'boolean':
      unsupportedKeywords(node, ['type'], path, problems)
      return { type: 'boolean' }
    case 'array': {
      // minItems only says a list or table answers at least one item when it answers at all.
      unsupportedKeywords(node, ['type', 'items', 'minItems'], path, problems)
      const items = node.items
      if (!isObject(items)) {
        problems.add(`${path}/items`, 'Expected the schema of the items')
        return undefined
      }
      const itemTypes = typesOf(items, `${path}/items`, problems)
      if (itemTypes?.length === 1 && itemTypes[0] === 'string' && items.format === undefined && items.enum === undefined) {
        unsupportedKeywords(items, ['type'], `${path}/items`, problems)
        return { type: 'list' }
      }
      if (itemTypes?.length === 1 && itemTypes[0] === 'object' && !inTable && items.properties === undefined && items.additionalProperties !== false) {
        // Rows of any columns: a table whose columns are whatever the document prints.
        unsupportedKeywords(items, ['type', 'additionalProperties'], `${path}/items`, problems)
        return { type: 'table' }
      }
      if (itemTypes?.length === 1 && itemTypes[0] === 'object' && !inTable) {
        const columns = properties(items, `${path}/items`, problems, true, MAX_COLUMNS)
        return columns ? { type: 'table', columns: columns.map(({ required: _, ...column }) => column) as ColumnInput[] } : undefined
      }
      problems.add(
        `${path}/items`,
        inTable ? 'A column is a string, number, integer, boolean, enum or array of strings' : 'Arrays are read as lists of strings or tables of objects',
      )
      return undefined
    }
    default:
      problems.add(`${path}/type`, `Type "${type}" is not read here${inTable ? ' (tables do not nest)' : ''}`)
      return undefined
  }
}

/** The fields of an object node's properties, in their order. */
function properties(node: Json, path: string, problems: Problems, inTable: boolean, max: number): FieldInput[] | undefined {
  const types = typesOf(node, path, problems)
  if (types && !(types.length === 1 && types[0] === 'object')) problems.add(`${path}/type`, 'Expected "object"')
  unsupportedKeywords(node, ['type', 'properties', 'required', 'additionalProperties'], path, problems)
  if (node.additionalProperties !== undefined && typeof node.additionalProperties !== 'boolean')
    problems.add(`${path}/additionalProperties`, 'Expected true or false')
  const props = node.properties
  if (!isObject(props) || Object.keys(props).length === 0) {
    problems.add(`${path}/properties`, 'Expected an object with at least one property')
    return undefined
  }
  const keys = Object.keys(props)
  if (keys.length > max) problems.add(`${path}/properties`, `At most ${max} properties`)
  const required = node.required === undefined ? [] : node.required
  if (!Array.isArray(required) || !required.every((key) => typeof key === 'string' && Object.hasOwn(props, key)))
    problems.add(`${path}/required`, 'Expected an array of property names')
  const fields: FieldInput[] = []
  for (const key of keys) {
    const at = `${path}/properties/${pointerSegment(key)}`
    if (!KEY.test(key) || key.length > 64) {
      problems.add(at, 'Invalid field key: ASCII letters, digits and underscores only, 1 to 64 of them')
      continue
    }
    const given = props[key]
    if (!isObject(given)) {
      problems.add(at, 'Expected a schema object')
      continue
    }
    const property = withoutNull(given)
    const { label, description } = texts(property, key, at, problems)
    const typed = typeOf(property, at, problems, inTable)
    if (typed) fields.push({ key, label, description, required: Array.isArray(required) && required.includes(key), ...typed })
  }
  return fields
}

/** The fields of a JSON Schema, or the problems that keep it from being read (D97). */
export function fieldsFromJsonSchema(schema: unknown): { fields: FieldInput[] } | { details: Problem[] } {
  const problems = new Problems()
  if (!isObject(schema)) return { details: [{ path: '/json_schema', message: 'Expected a JSON Schema object' }] }
  const fields = properties(schema, '/json_schema', problems, false, MAX_FIELDS)
  if (problems.details.length > 0 || !fields) return { details: problems.details }
  return { fields }
}
