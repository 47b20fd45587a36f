import { type FormEvent, type KeyboardEvent, useEffect, useState } from 'react'
import { graphql } from '../api/client.js'
import { AUTOCOMPLETE } from '../api/queries.js'
import { typeLabel } from '../lib/display.js'

interface Suggestion {
  readonly type: string
  readonly text: string
}

interface AutoCompleteAnswer {
  autoCompleteForMultiple: { suggestions: { type: string; suggestions: string[] }[] } | null
}

/** The query box; suggestions from `autoCompleteForMultiple` as the user types. */
export function SearchBox({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(initial)
  const [suggestions, setSuggestions] = useState<Suggestion[]>([])
  const [active, setActive] = useState(-1)
  useEffect(() => setText(initial), [initial])
  useEffect(() => {
    const query = text.trim()
    if (query.length < 2 || query === initial) return setSuggestions([])
    let live = true
    const timer = setTimeout(() => {
      graphql<AutoCompleteAnswer>(AUTOCOMPLETE, { input: { query, limit: 5 } })
        .then((a) => {
          if (!live) return
          const all = (a.autoCompleteForMultiple?.suggestions ?? []).flatMap((s) =>
            s.suggestions.map((t) => ({ type: s.type, text: t })),
          )
          setSuggestions(all.slice(0, 10))
          setActive(-1)
        })
        .catch(() => live && setSuggestions([]))
    }, 150)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [text, initial])
  const choose = (q: string) => {
    setText(q)
    setSuggestions([])
    onSearch(q)
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const picked = suggestions[active]
    choose(picked ? picked.text : text.trim())
  }
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') setActive((i) => Math.min(i + 1, suggestions.length - 1))
    else if (e.key === 'ArrowUp') setActive((i) => Math.max(i - 1, -1))
    else if (e.key === 'Escape') setSuggestions([])
    else return
    e.preventDefault()
  }
  return (
    <form className="search-box" onSubmit={submit}>
      <input
        type="search"
        name="q"
        aria-label="Search the catalog"
        placeholder="Search datasets, charts, models, tags…"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKey}
        onBlur={() => setTimeout(() => setSuggestions([]), 150)}
        autoComplete="off"
      />
      <button type="submit">Search</button>
      {suggestions.length > 0 && (
        <ul className="suggestions">
          {suggestions.map((s, i) => (
            <li key={`${s.type}:${s.text}`} className={i === active ? 'active' : undefined}>
              <button type="button" onMouseDown={() => choose(s.text)}>
                {s.text} <span className="muted">{typeLabel(s.type)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </form>
  )
}
