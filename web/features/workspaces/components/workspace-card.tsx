import { Badge, Card, DataList, Heading, Text } from "@radix-ui/themes";
import type { CurrentWorkspace } from "#web/lib/workspace";
import { ROLE_HINT, ROLE_LABEL } from "../roles";

/** Settings: the workspace on screen and what your role in it lets you do. */
export function WorkspaceCard({ workspace }: { workspace: CurrentWorkspace }) {
  return (
    <Card size="3" data-testid="workspace-card">
      <Heading as="h2" size="4" mb="1">
        Workspace
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        {workspace.personal
          ? "Your personal workspace is yours alone. To work with others, make a team workspace from the switcher in the sidebar and invite them here."
          : "Everything you see in the app belongs to this workspace. Switch workspaces from the sidebar."}
      </Text>
      <DataList.Root>
        <DataList.Item>
          <DataList.Label>Name</DataList.Label>
          <DataList.Value>{workspace.name}</DataList.Value>
        </DataList.Item>
        <DataList.Item align="center">
          <DataList.Label>Your role</DataList.Label>
          <DataList.Value>
            <Badge variant="soft" color={workspace.role === "viewer" ? "gray" : "violet"}>
              {ROLE_LABEL[workspace.role]}
            </Badge>
            <Text size="1" color="gray" ml="2">
              {ROLE_HINT[workspace.role]}
            </Text>
          </DataList.Value>
        </DataList.Item>
      </DataList.Root>
    </Card>
  );
}
