import { createElement, type ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { Link, MemoryRouter, NavLink } from 'react-router'
import { beforeEach, describe, expect, it } from 'vitest'
import { StaticMarkup, StaticMarkupContext } from '~/components/ui/static-markup'
import { forgetStaticMarkup, renderStaticMarkup } from './static-markup.server'

const links = (label: string) => [
  createElement(NavLink, { key: 'a', to: '/a' }, label),
  ' and ',
  createElement(Link, { key: 'b', to: '/b' }, 'B'),
]

/** A page at `path` with a StaticMarkup nav, rendered as the server renders (or as the browser). */
function page(path: string, deps: unknown[], label: string, server = true): string {
  const nav = createElement(StaticMarkup<'nav'>, {
    as: 'nav',
    name: 'test-nav',
    deps,
    'aria-label': 'Test',
    children: links(label),
  })
  const tree: ReactNode = server
    ? createElement(StaticMarkupContext, { value: renderStaticMarkup }, nav)
    : nav
  return renderToString(createElement(MemoryRouter, { initialEntries: [path] }, tree))
}

describe('StaticMarkup', () => {
  beforeEach(() => forgetStaticMarkup())

  it('writes the same HTML as rendering the children in place, router links included', () => {
    expect(page('/a', ['/a'], 'A')).toBe(page('/a', ['/a'], 'A', false))
    expect(page('/b', ['/b'], 'A')).toBe(page('/b', ['/b'], 'A', false))
    // The active link is marked: the router's location reached the separate render.
    expect(page('/a', ['/a'], 'A')).toContain('aria-current="page"')
  })

  it('reuses the HTML of equal deps and renders again for other deps', () => {
    const first = page('/a', ['/a'], 'A')
    // Same name and deps: the copy, even though these children would say otherwise.
    expect(page('/a', ['/a'], 'Changed')).toBe(first)
    expect(page('/a', ['/a', 'v2'], 'Changed')).toContain('Changed')
    forgetStaticMarkup()
    expect(page('/a', ['/a'], 'Changed')).toContain('Changed')
  })
})
