import t from 'tap'
import { actionOf } from './action-constraint.js'

t.test('actionOf reads the action parameter of the query, and only it', async (t) => {
  t.equal(actionOf('/entities'), undefined, 'no query')
  t.equal(actionOf('/entities?action=search'), 'search')
  t.equal(actionOf('/entities?start=0&action=search&count=10'), 'search', 'among other parameters')
  t.equal(actionOf('/entities?reaction=x'), undefined, 'a parameter whose name ends in action')
  t.equal(actionOf('/entities?reaction=x&action=browse'), 'browse', 'after one whose name ends in action')
  t.equal(actionOf('/entities?q=action=x'), undefined, 'inside another parameter’s value')
  t.equal(actionOf('/entities?action=a&action=b'), 'a', 'the first of two')
  t.equal(actionOf('/entities?action='), '', 'empty')
  t.equal(actionOf('/entities?action'), undefined, 'no value')
  t.equal(actionOf('/entities?action=get%4Cineage'), 'getLineage', 'percent-encoded')
  t.equal(actionOf('/entities?action=%E0%A4'), '%E0%A4', 'malformed encoding: as it is')
  t.equal(actionOf('/x?action=1?action=2'), '1?action=2', 'the value runs to the next &')
})
