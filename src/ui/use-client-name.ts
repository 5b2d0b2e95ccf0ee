/** The name of the client app the user is signing in to, once known. */
import { useEffect, useState } from 'react';
import { lookupClientName } from '../engine/runtime.ts';

/** Looks the client up when there is a client_id; undefined until (or unless) it answers. */
export function useClientName(clientId: string | null): string | undefined {
  const [name, setName] = useState<{ id: string; name: string | undefined }>();
  useEffect(() => {
    if (!clientId) return;
    let current = true;
    void lookupClientName(clientId).then((found) => {
      if (current) setName({ id: clientId, name: found });
    });
    return () => {
      current = false;
    };
  }, [clientId]);
  return name?.id === clientId ? name.name : undefined;
}
