/** The flow studio's page (npm run studio): mounts the studio into #studio. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { StudioApp } from './studio-app.tsx';
import './studio.css';

const root = document.getElementById('studio');
if (!root) throw new Error('studio.html has no #studio element');
createRoot(root).render(
  <StrictMode>
    <StudioApp />
  </StrictMode>,
);
