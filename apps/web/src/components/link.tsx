import type { MouseEvent, ReactNode } from 'react'
import { navigate } from '../lib/router.js'

/** An anchor that moves within the app without a reload (a plain link for new tabs). */
export function Link(props: { href: string; className?: string; children: ReactNode }) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    navigate(props.href)
  }
  return (
    <a href={props.href} className={props.className} onClick={onClick}>
      {props.children}
    </a>
  )
}
