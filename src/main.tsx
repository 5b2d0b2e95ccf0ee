/** The browser entry: mounts the app into #root. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/app.tsx';
import './ui/theme.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
