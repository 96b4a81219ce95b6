import { Flex, Spinner, Text } from "@radix-ui/themes";
import { useNavigate, useParams } from "react-router";
import { useSession } from "#web/features/auth/use-session";
import { AcceptInvitation } from "#web/features/workspaces/components/accept-invitation";
import { loadWorkspaces, switchWorkspace } from "#web/features/workspaces/store";
import { PublicHeader } from "#web/routes/layout/public-header";

export const handle = { title: "Invitation" };

/** An invitation link (`/invite/:token`): accept it signed in, or sign in or up first and come back. */
export function Component() {
  const { token = "" } = useParams();
  const { status, user } = useSession();
  const navigate = useNavigate();

  async function accepted(workspace: { id: string; name: string; role: "owner" | "admin" | "editor" | "viewer" }) {
    if (!user) return;
    // The team's workspace becomes the current one, so the comparisons page shows its work.
    await switchWorkspace(user.id, { ...workspace, personal: false });
    await loadWorkspaces(user.id);
    navigate("/comparison");
  }

  return (
    <>
      <PublicHeader />
      <Flex asChild align="center" justify="center" className="di-standalone-main">
        <main id="main-content">
          {status === "loading" ? (
            <Flex align="center" gap="3" role="status">
              <Spinner size="3" />
              <Text size="3">Checking credentials...</Text>
            </Flex>
          ) : (
            <AcceptInvitation token={token} signedInAs={user ? user.username || user.email : null} onAccepted={accepted} />
          )}
        </main>
      </Flex>
    </>
  );
}
