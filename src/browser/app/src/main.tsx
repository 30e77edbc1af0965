// A minimal host for Shlink's admin UI (the component that shlink-web-client wraps), pointed at a server given in the
// query string: /?server=http://127.0.0.1:8080&apiKey=...  The mounting follows shlinkio/shlink-web-component's own
// dev sandbox (dev/App.tsx, MIT): the SDK's ShlinkApiClient over its FetchHttpClient, handed to ShlinkWebComponent.
import { ShlinkApiClient } from '@shlinkio/shlink-js-sdk';
import { FetchHttpClient } from '@shlinkio/shlink-js-sdk/fetch';
import { ShlinkWebComponent } from '@shlinkio/shlink-web-component';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './tailwind.css';

const query = new URLSearchParams(window.location.search);
const baseUrl = query.get('server');
const apiKey = query.get('apiKey');
const root = createRoot(document.getElementById('root')!);

if (!baseUrl || !apiKey) {
  root.render(<p>Give the server and its key in the query string: <code>?server=http://host:port&amp;apiKey=...</code></p>);
} else {
  // The component routes with the browser's path and drops the query string, so the server is remembered for the tab.
  sessionStorage.setItem('shortgate.server', JSON.stringify({ baseUrl, apiKey }));
}
const saved = JSON.parse(sessionStorage.getItem('shortgate.server') ?? 'null') as { baseUrl: string; apiKey: string } | null;
if (saved) {
  const apiClient = new ShlinkApiClient(new FetchHttpClient(), saved);
  // The component shows the controls of the Shlink version the server reports, as shlink-web-client does.
  apiClient.health().then(
    (health) => health.version,
    () => '4.0.0',
  ).then((serverVersion) => root.render(
    <StrictMode>
      <ShlinkWebComponent serverVersion={serverVersion as `${number}.${number}.${number}`} apiClient={apiClient} />
    </StrictMode>,
  ));
}
