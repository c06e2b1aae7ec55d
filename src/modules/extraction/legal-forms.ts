/**
 * Legal forms as OCR misreads them (D381): "SDN BHO", "SON BHD", "Sdn Bnd", "5/B". The built-in
 * engine mends a name that ends with one (engines/builtin/names.ts); locate.ts finds the printed
 * words of the form it mended, and does not judge the name's reading by them (D310 judges a name
 * by its own words, not its legal form).
 */
import { lexicons } from '../../lib/lexicon'

/**
 * The legal forms of several words or with a mark inside ("Sdn. Bhd.", "S/B", "A/S"), each word
 * without its closing dot: long enough that a letter misread in each word still names them; a
 * form of one plain word ("AG", "Ltd") misread by a letter is another word.
 */
const MULTIPART_FORMS = [...new Set(lexicons().flatMap((lexicon) => lexicon.legal_forms))]
  .map((form) => form.split(' ').map((word) => word.replace(/\.$/, '')))
  .filter((words) => words.length > 1 || /[^\p{L}.]/u.test(words[0]!))

/** The words of those forms, in lower case. */
const FORM_WORDS = new Set(MULTIPART_FORMS.flat().map((word) => word.toLowerCase()))

/**
 * How many letters of a printed word differ from a form's word of its length (a letter or digit
 * printed for a letter), else Infinity; a word of one or two letters ("z" of "Sp. z o.o.") must be
 * printed as it is written, as any other short word would be one letter off it.
 */
function misreads(printed: string, form: string): number {
  if (printed.length !== form.length) return Infinity
  if (form.length < 3) return printed.toLowerCase() === form.toLowerCase() ? 0 : Infinity
  let count = 0
  for (let at = 0; at < form.length; at++) {
    if (printed[at]!.toLowerCase() === form[at]!.toLowerCase()) continue
    if (!/[\p{L}\d]/u.test(printed[at]!) || !/\p{L}/u.test(form[at]!)) return Infinity
    count++
  }
  return count
}

/**
 * A name's words with a legal form of several parts at their end that is misread by a letter in
 * some of its words, and no more in any, written as the lexicon writes it in the printed case
 * ("TRI SHAAS SDN BHO" → "… SDN BHD"). A name that ends with a form as written, or that is no more
 * than the form, is left as it is.
 */
export function mendLegalForm(words: readonly string[]): string[] {
  const tails = MULTIPART_FORMS.filter((form) => words.length > form.length).map((form) => {
    const tail = words.slice(-form.length)
    return { form, tail, counts: tail.map((word, at) => misreads(word.replace(/\.$/, ''), form[at]!)) }
  })
  if (tails.some(({ counts }) => counts.every((count) => count === 0))) return [...words]
  const misread = tails.find(({ counts }) => counts.every((count) => count <= 1))
  if (!misread) return [...words]
  const spelled = misread.tail.map((word, at) => {
    const bare = word.replace(/\.$/, '')
    const form = misread.form[at]!
    return (bare === bare.toUpperCase() ? form.toUpperCase() : form) + (word.endsWith('.') ? '.' : '')
  })
  return [...words.slice(0, -spelled.length), ...spelled]
}

/** A printed word that is a word of such a form misread by one letter ("BHO", "S0N"), as `mendLegalForm` mends it; never a word of a form as written. */
export function misreadFormWord(printed: string): boolean {
  const bare = printed.replace(/\.$/, '')
  if (FORM_WORDS.has(bare.toLowerCase())) return false
  for (const word of FORM_WORDS) if (misreads(bare, word) === 1) return true
  return false
}
