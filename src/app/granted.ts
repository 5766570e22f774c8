import { useCallback } from 'react';
import { hasPermission } from '@contract/access';
import { permissionOf, type EndpointSpec } from '@contract/endpoint';
import { SessionContext } from './session';

/**
 * Whether the signed-in person's role grants a call, by the same rule the server checks it with (`permissionOf` of
 * the endpoint): a button whose call a member may not make is not shown. Owners and the administrator (no member
 * permissions) are granted everything their roles reach. Hiding is for the eye only; the server refuses all the same.
 */
export function useGranted(): (endpoint: EndpointSpec) => boolean {
  const permissions = SessionContext.useSelector((snapshot) => snapshot.context.user.permissions);
  return useCallback(
    (endpoint: EndpointSpec) => {
      const needed = permissionOf(endpoint);
      // An endpoint that declares no permission is refused to members (tests/server/endpoints.test.ts keeps it rare).
      return needed === undefined ? permissions === null : hasPermission(permissions, needed);
    },
    [permissions],
  );
}
