import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// `findBy…` and `waitFor` wait up to 5 s: the machine running the suite may be busy.
configure({ asyncUtilTimeout: 5000 })

// Each test renders into a fresh document with no session token left behind.
afterEach(() => {
  cleanup()
  sessionStorage.clear()
})
