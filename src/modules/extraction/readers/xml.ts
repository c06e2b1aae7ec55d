/** Entity decoding shared by the DOCX and HTML readers. */

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ensp: ' ', emsp: ' ', thinsp: ' ',
  euro: '€', pound: '£', yen: '¥', cent: '¢', copy: '©', reg: '®', trade: '™', deg: '°',
  ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”',
  laquo: '«', raquo: '»', bull: '•', middot: '·', sect: '§', para: '¶', times: '×', divide: '÷',
  shy: '', zwnj: '', zwj: '',
  auml: 'ä', ouml: 'ö', uuml: 'ü', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß',
  eacute: 'é', egrave: 'è', ecirc: 'ê', euml: 'ë', Eacute: 'É', Egrave: 'È', Ecirc: 'Ê',
  aacute: 'á', agrave: 'à', acirc: 'â', Aacute: 'Á', Agrave: 'À', Acirc: 'Â', atilde: 'ã', aring: 'å',
  iacute: 'í', igrave: 'ì', icirc: 'î', iuml: 'ï', Iacute: 'Í',
  oacute: 'ó', ograve: 'ò', ocirc: 'ô', otilde: 'õ', Oacute: 'Ó', oslash: 'ø', Oslash: 'Ø',
  uacute: 'ú', ugrave: 'ù', ucirc: 'û', Uacute: 'Ú',
  ntilde: 'ñ', Ntilde: 'Ñ', ccedil: 'ç', Ccedil: 'Ç', yacute: 'ý', yuml: 'ÿ',
  aelig: 'æ', AElig: 'Æ', oelig: 'œ', OElig: 'Œ', iexcl: '¡', iquest: '¿', ordm: 'º', ordf: 'ª',
}

/** Decodes named (common HTML set), decimal and hexadecimal character references. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);?/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) return whole
      return code === 0xa0 ? ' ' : String.fromCodePoint(code)
    }
    // Own properties only: "&constructor;" is not an entity.
    return Object.hasOwn(NAMED_ENTITIES, name) ? NAMED_ENTITIES[name]! : whole
  })
}
