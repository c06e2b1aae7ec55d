/**
 * A string type whose length limits count Unicode code points (D4), as JSON Schema defines
 * `minLength`/`maxLength`; TypeBox's own String counts UTF-16 units. Registered as a TypeBox
 * kind so route schemas validate it and the OpenAPI document shows a plain string.
 */
import { Kind, type SchemaOptions, type TSchema, TypeRegistry } from '@sinclair/typebox'
import { DefaultErrorFunction, SetErrorFunction, ValueErrorType } from '@sinclair/typebox/errors'

export interface TextOptions extends SchemaOptions {
  minLength?: number
  maxLength?: number
  /** A regular expression the string must match somewhere (Unicode mode). */
  pattern?: string
}

export interface TText extends TSchema, TextOptions {
  [Kind]: 'Text'
  static: string
  type: 'string'
}

/** Pattern for strings that must contain a non-whitespace character (D4). */
export const NOT_BLANK = '\\S'

function codePointLength(value: string): number {
  let count = 0
  for (const _ of value) count++
  return count
}

/**
 * The length in code points when it decides a limit, else the length in UTF-16 units: those are
 * never fewer than the code points and at most twice as many, so most strings need no count.
 */
function lengthForLimits(value: string, schema: TText): number {
  const units = value.length
  const maxUndecided = schema.maxLength !== undefined && units > schema.maxLength
  const minUndecided = schema.minLength !== undefined && units >= schema.minLength && units < 2 * schema.minLength
  return maxUndecided || minUndecided ? codePointLength(value) : units
}

const patterns = new Map<string, RegExp>()

function matches(pattern: string, value: string): boolean {
  let regex = patterns.get(pattern)
  if (!regex) patterns.set(pattern, (regex = new RegExp(pattern, 'u')))
  return regex.test(value)
}

function textProblem(schema: TText, value: unknown): string | undefined {
  if (typeof value !== 'string') return 'Expected string'
  if (!value.isWellFormed()) return 'Expected well-formed Unicode text (no lone surrogates)'
  const length = lengthForLimits(value, schema)
  if (schema.minLength !== undefined && length < schema.minLength) return `Expected string length greater or equal to ${schema.minLength}`
  if (schema.maxLength !== undefined && length > schema.maxLength) return `Expected string length less or equal to ${schema.maxLength} characters`
  if (schema.pattern !== undefined && !matches(schema.pattern, value))
    return schema.pattern === NOT_BLANK ? 'Expected a non-whitespace character' : `Expected string to match '${schema.pattern}'`
  return undefined
}

TypeRegistry.Set<TText>('Text', (schema, value) => textProblem(schema, value) === undefined)

SetErrorFunction((parameter) => {
  if (parameter.errorType === ValueErrorType.Kind && parameter.schema[Kind] === 'Text')
    return textProblem(parameter.schema as TText, parameter.value) ?? 'Invalid string'
  return DefaultErrorFunction(parameter)
})

export function Text(options: TextOptions = {}): TText {
  return { ...options, type: 'string', [Kind]: 'Text' } as TText
}
