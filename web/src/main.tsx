import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './index.css'
import { App } from './app/app'
import { dropTrailingSlash } from './lib/trailing-slash'

const root = document.getElementById('root')
if (!root) throw new Error('missing #root')

// `/oauth/authorize/` is `/oauth/authorize`, as the server takes it.
dropTrailingSlash(window.location, window.history)

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
