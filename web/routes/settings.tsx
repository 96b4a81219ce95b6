import { DesktopIcon, MoonIcon, SunIcon } from "@radix-ui/react-icons";
import { Badge, Box, Card, DataList, Flex, Heading, Kbd, RadioCards, Text } from "@radix-ui/themes";
import { ApiKeysCard } from "#web/features/api-keys/components/api-keys-card";
import { useSession } from "#web/features/auth/use-session";
import { DigestCard } from "#web/features/watch/components/digest-card";
import { type ThemePreference, useTheme } from "#web/features/theme/store";
import { AuditPanel } from "#web/features/workspaces/components/audit-panel";
import { InvitationsPanel } from "#web/features/workspaces/components/invitations-panel";
import { MembersPanel } from "#web/features/workspaces/components/members-panel";
import { WorkspaceCard } from "#web/features/workspaces/components/workspace-card";
import { loadWorkspaces } from "#web/features/workspaces/store";
import { hasRole, useCurrentWorkspace } from "#web/lib/workspace";

export const handle = { title: "Settings" };

const THEMES: { value: ThemePreference; label: string; hint: string; icon: typeof SunIcon }[] = [
  { value: "light", label: "Light", hint: "Bright and crisp", icon: SunIcon },
  { value: "dark", label: "Dark", hint: "Easy on the eyes", icon: MoonIcon },
  { value: "system", label: "System", hint: "Follow this device", icon: DesktopIcon },
];

const SHORTCUTS: [string[], string][] = [
  [["Ctrl", "K"], "Open the command palette (Cmd+K on a Mac)"],
  [["1"], "Dashboard"],
  [["2"], "Compare"],
  [["3"], "Trends"],
  [["4"], "Analytics"],
  [["5"], "Activity"],
];

export function Component() {
  const { user } = useSession();
  const workspace = useCurrentWorkspace();
  const preference = useTheme((s) => s.preference);
  const choose = useTheme((s) => s.choose);

  return (
    <Box p={{ initial: "4", md: "6" }} style={{ maxWidth: 760 }}>
      <Heading as="h1" size="7" mb="1">
        Settings
      </Heading>
      <Text as="p" color="gray" mb="5">
        Who you are, who you work with, and how the lab looks.
      </Text>

      <Flex direction="column" gap="4">
        <Card size="3">
          <Heading as="h2" size="4" mb="3">
            Profile
          </Heading>
          {user && (
            <DataList.Root>
              <DataList.Item>
                <DataList.Label>Email</DataList.Label>
                <DataList.Value>{user.email}</DataList.Value>
              </DataList.Item>
              <DataList.Item>
                <DataList.Label>Username</DataList.Label>
                <DataList.Value>{user.username ?? <Text color="gray">Not set</Text>}</DataList.Value>
              </DataList.Item>
              <DataList.Item align="center">
                <DataList.Label>Role</DataList.Label>
                <DataList.Value>
                  <Badge color={user.role === "admin" ? "crimson" : "gray"} variant="soft">
                    {user.role === "admin" ? "Admin" : "User"}
                  </Badge>
                </DataList.Value>
              </DataList.Item>
            </DataList.Root>
          )}
        </Card>

        {user && workspace && <WorkspaceCard workspace={workspace} userId={user.id} />}
        {user && workspace && !workspace.personal && (
          <MembersPanel
            key={`${workspace.id}:${workspace.role}`}
            workspace={workspace}
            userId={user.id}
            onLeft={() => void loadWorkspaces(user.id)}
          />
        )}
        {user && workspace && !workspace.personal && hasRole(workspace.role, "admin") && (
          <InvitationsPanel key={workspace.id} workspace={workspace} />
        )}
        {user && workspace && hasRole(workspace.role, "admin") && <AuditPanel key={workspace.id} workspace={workspace} />}

        <Card size="3">
          <Heading as="h2" size="4" mb="1" id="theme-heading">
            Theme
          </Heading>
          <Text as="p" size="2" color="gray" mb="3">
            Saved in this browser.
          </Text>
          <RadioCards.Root
            value={preference}
            onValueChange={(v) => choose(v as ThemePreference)}
            columns={{ initial: "1", sm: "3" }}
            aria-labelledby="theme-heading"
          >
            {THEMES.map(({ value, label, hint, icon: Icon }) => (
              <RadioCards.Item key={value} value={value}>
                <Flex gap="3" align="center" width="100%">
                  <Icon width={18} height={18} aria-hidden />
                  <Flex direction="column">
                    <Text weight="bold">{label}</Text>
                    <Text size="1" color="gray">
                      {hint}
                    </Text>
                  </Flex>
                </Flex>
              </RadioCards.Item>
            ))}
          </RadioCards.Root>
        </Card>

        {user && <ApiKeysCard />}

        {user && <DigestCard />}

        <Card size="3">
          <Heading as="h2" size="4" mb="3">
            Keyboard shortcuts
          </Heading>
          <DataList.Root>
            {SHORTCUTS.map(([keys, what]) => (
              <DataList.Item key={what} align="center">
                <DataList.Label minWidth="120px">
                  <Flex gap="1">
                    {keys.map((k) => (
                      <Kbd key={k}>{k}</Kbd>
                    ))}
                  </Flex>
                </DataList.Label>
                <DataList.Value>{what}</DataList.Value>
              </DataList.Item>
            ))}
          </DataList.Root>
          <Text as="p" size="1" color="gray" mt="3">
            The number keys work anywhere except while typing in a field.
          </Text>
        </Card>
      </Flex>
    </Box>
  );
}
