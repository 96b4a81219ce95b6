import { Badge, Button, Callout, Checkbox, Dialog, Flex, Select, Skeleton, Table, Text } from "@radix-ui/themes";
import { ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { useEffect, useState } from "react";
import type { PageRole } from "#server/modules/capture/model";
import { errorMessage } from "#web/lib/api";
import { PAGE_ROLES, ROLE_LABELS } from "#web/lib/page-roles";
import { addPage, type DiscoveryDto, discoverPages, type PageDto } from "../api";

/** Pages a site keeps at most, home included (the server answers 409 past it). */
export const MAX_PAGES = 20;

interface Props {
  targetId: string;
  label: string;
  /** The site's pages already kept: their paths are not offered again. */
  existing: PageDto[];
  onClose(): void;
  /** Pages added, in the order picked (some may have failed; those are told in the dialog). */
  onAdded(pages: PageDto[]): void;
}

interface Pick {
  on: boolean;
  role: PageRole;
}

/** "Find pages": what discovery proposes for a site, to tick, give a role, and add. */
export function DiscoveryPicker({ targetId, label, existing, onClose, onAdded }: Props) {
  const [found, setFound] = useState<DiscoveryDto | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [picks, setPicks] = useState<Record<string, Pick>>({});
  const [adding, setAdding] = useState(false);
  const [failures, setFailures] = useState<string[]>([]);
  const have = new Set(existing.map((p) => p.path));

  useEffect(() => {
    let live = true;
    discoverPages(targetId)
      .then((d) => {
        if (!live) return;
        setFound(d);
        // A site has one home page already; another page proposed as home is offered as "other".
        setPicks(Object.fromEntries(d.pages.map((p) => [p.path, { on: false, role: p.role === "home" ? "other" : p.role }])));
      })
      .catch((err) => live && setLoadError(errorMessage(err, "Couldn't look for pages on this site. Please try again.")));
    return () => {
      live = false;
    };
  }, [targetId]);

  const proposals = found?.pages.filter((p) => !have.has(p.path)) ?? [];
  const chosen = proposals.filter((p) => picks[p.path]?.on);
  const room = MAX_PAGES - existing.length;

  async function add() {
    setAdding(true);
    const added: PageDto[] = [];
    const failed: string[] = [];
    // One after another: the server counts a site's pages, and the order picked is the order kept.
    for (const p of chosen) {
      try {
        added.push(await addPage(targetId, { path: p.path, role: picks[p.path]?.role ?? p.role }));
      } catch (err) {
        failed.push(`${p.path}: ${errorMessage(err, "not added")}`);
      }
    }
    setAdding(false);
    setFailures(failed);
    if (added.length) onAdded(added);
    if (!failed.length) onClose();
  }

  const set = (path: string, change: Partial<Pick>) => setPicks((all) => ({ ...all, [path]: { ...all[path]!, ...change } }));

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Content maxWidth="900px">
        <Dialog.Title>Find pages on {label}</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          From the site's sitemap and its navigation, as its robots.txt allows. Tick the pages to follow and check their roles.
        </Dialog.Description>
        {loadError ? (
          <Callout.Root color="red" size="1">
            <Callout.Icon>
              <ExclamationTriangleIcon />
            </Callout.Icon>
            <Callout.Text>{loadError}</Callout.Text>
          </Callout.Root>
        ) : !found ? (
          <Flex direction="column" gap="2" aria-busy="true" aria-label="Looking for pages">
            <Text size="2" color="gray">
              Reading robots.txt, the sitemap and the navigation…
            </Text>
            <Skeleton height="24px" />
            <Skeleton height="24px" />
          </Flex>
        ) : (
          <Flex direction="column" gap="3">
            {proposals.length === 0 ? (
              <Text size="2" color="gray">
                No new pages found{found.pages.length ? ": every page found is already followed" : ""}.
              </Text>
            ) : (
              <div style={{ overflowX: "auto" }}>
                <Table.Root size="1" data-testid="discovered-pages">
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeaderCell>
                        <span className="di-visually-hidden">Add</span>
                      </Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Page</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Role</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Found in</Table.ColumnHeaderCell>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {proposals.map((p) => {
                      const pick = picks[p.path] ?? { on: false, role: p.role };
                      return (
                        <Table.Row key={p.path} align="center">
                          <Table.Cell>
                            <Checkbox
                              checked={pick.on}
                              aria-label={`Add ${p.path}`}
                              disabled={!pick.on && chosen.length >= room}
                              onCheckedChange={(v) => set(p.path, { on: v === true })}
                            />
                          </Table.Cell>
                          {/* The title under the path, so a phone's narrow table keeps the path readable. */}
                          <Table.RowHeaderCell>
                            <Flex direction="column" gap="1">
                              <Text size="2" style={{ fontFamily: "var(--code-font-family)", overflowWrap: "anywhere" }}>
                                {p.path}
                              </Text>
                              <Text size="1" color="gray">
                                {p.title ?? "No title"}
                              </Text>
                            </Flex>
                          </Table.RowHeaderCell>
                          <Table.Cell>
                            <Select.Root size="1" value={pick.role} onValueChange={(v) => set(p.path, { role: v as PageRole })}>
                              <Select.Trigger aria-label={`Role of ${p.path}`} />
                              <Select.Content position="popper">
                                {PAGE_ROLES.filter((r) => r !== "home").map((r) => (
                                  <Select.Item key={r} value={r}>
                                    {ROLE_LABELS[r]}
                                  </Select.Item>
                                ))}
                              </Select.Content>
                            </Select.Root>
                          </Table.Cell>
                          <Table.Cell>
                            <Badge variant="soft" color={p.source === "sitemap" ? "amber" : "blue"}>
                              {p.source === "sitemap" ? "Sitemap" : "Navigation"}
                            </Badge>
                          </Table.Cell>
                        </Table.Row>
                      );
                    })}
                  </Table.Body>
                </Table.Root>
              </div>
            )}
            {found.disallowed.length > 0 && (
              <Flex direction="column" gap="1" data-testid="disallowed-pages">
                <Text size="2" weight="medium">
                  Disallowed by robots.txt (not fetched, not proposed)
                </Text>
                <Flex gap="1" wrap="wrap" asChild>
                  <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
                    {found.disallowed.map((path) => (
                      <li key={path}>
                        <Badge variant="outline" color="gray">
                          {path}
                        </Badge>
                      </li>
                    ))}
                  </ul>
                </Flex>
              </Flex>
            )}
            {chosen.length >= room && proposals.length > chosen.length && (
              <Text size="1" color="gray">
                A site follows at most {MAX_PAGES} pages, its home page included.
              </Text>
            )}
            {failures.length > 0 && (
              <Callout.Root color="red" size="1">
                <Callout.Icon>
                  <ExclamationTriangleIcon />
                </Callout.Icon>
                <Callout.Text>Not added: {failures.join("; ")}</Callout.Text>
              </Callout.Root>
            )}
          </Flex>
        )}
        <Flex gap="2" justify="end" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button disabled={chosen.length === 0} loading={adding} onClick={() => void add()}>
            Add {chosen.length || ""} page{chosen.length === 1 ? "" : "s"}
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
