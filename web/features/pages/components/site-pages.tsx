import { Badge, Button, Flex, IconButton, Text, Tooltip } from "@radix-ui/themes";
import { LockClosedIcon, MagnifyingGlassIcon, Pencil1Icon, PlusIcon, TrashIcon } from "@radix-ui/react-icons";
import { useCallback, useEffect, useState } from "react";
import { DisabledReason } from "#web/components/ui/disabled-reason";
import { toast } from "#web/components/ui/toast";
import { useCanEdit } from "#web/lib/workspace";
import { errorMessage } from "#web/lib/api";
import { ROLE_COLORS, ROLE_LABELS } from "#web/lib/page-roles";
import { deletePage, listPages, type PageDto } from "../api";
import { DiscoveryPicker, MAX_PAGES } from "./discovery-picker";
import { PageEditor } from "./page-editor";
import { SecretsPanel } from "./secrets-panel";

interface Props {
  target: { id: string; label: string; url: string };
  /** Editing is off while a run captures the site. */
  editable: boolean;
}

type Open = { kind: "edit"; page: PageDto | null } | { kind: "discover" } | { kind: "secrets" } | null;

/** Home first, then the order the server keeps (it answers so; a page added here goes last). */
const ordered = (pages: PageDto[]) => [...pages.filter((p) => p.role === "home"), ...pages.filter((p) => p.role !== "home")];

/** A site's pages on the comparison screen: list, add, edit (steps), delete, find; and its secrets. */
export function SitePages({ target, editable }: Props) {
  const [pages, setPages] = useState<PageDto[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const viewerReason = useCanEdit().reason;

  const reload = useCallback(async () => {
    try {
      setPages(ordered(await listPages(target.id)));
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
    }
  }, [target.id]);
  useEffect(() => void reload(), [reload]);

  const saved = (page: PageDto) => {
    setPages((list) =>
      ordered(list?.some((p) => p.id === page.id) ? list.map((p) => (p.id === page.id ? page : p)) : [...(list ?? []), page]),
    );
    setOpen(null);
    toast({ title: "Page Saved", description: `${page.path} is captured in the next run.` });
  };

  async function remove(page: PageDto) {
    try {
      await deletePage(page.id);
      setPages((list) => list?.filter((p) => p.id !== page.id) ?? list);
    } catch (err) {
      toast({ title: "Delete Failed", description: errorMessage(err, "Unable to delete the page."), variant: "destructive" });
    }
  }

  const full = (pages?.length ?? 0) >= MAX_PAGES;
  return (
    <Flex direction="column" gap="2" mt="2" data-testid="site-pages" aria-label={`Pages of ${target.label}`} role="group">
      <Flex align="center" gap="2" wrap="wrap">
        <Text size="1" weight="bold" color="gray">
          Pages {pages ? `(${pages.length})` : ""}
        </Text>
        <Flex gap="1" wrap="wrap" ml="auto">
          <Button size="1" variant="soft" disabled={!editable || full} onClick={() => setOpen({ kind: "edit", page: null })}>
            <PlusIcon /> Add page
          </Button>
          <Button size="1" variant="soft" disabled={!editable || full} onClick={() => setOpen({ kind: "discover" })}>
            <MagnifyingGlassIcon /> Find pages
          </Button>
          {/* Secrets can be set while a run captures; only a viewer may not. */}
          <DisabledReason reason={viewerReason}>
            <Button size="1" variant="soft" color="gray" disabled={viewerReason !== null} onClick={() => setOpen({ kind: "secrets" })}>
              <LockClosedIcon /> Secrets
            </Button>
          </DisabledReason>
        </Flex>
      </Flex>
      {loadFailed && (
        <Text size="1" color="red">
          Couldn't load this site's pages.{" "}
          <Button size="1" variant="ghost" onClick={() => void reload()}>
            Try again
          </Button>
        </Text>
      )}
      {pages && (
        <Flex direction="column" gap="1" asChild>
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {pages.map((p) => (
              <li key={p.id} aria-label={`${p.path} (${ROLE_LABELS[p.role]})`}>
                <Flex align="center" gap="2" wrap="wrap">
                  <Text size="1" style={{ fontFamily: "var(--code-font-family)", overflowWrap: "anywhere", minWidth: 0 }}>
                    {p.path}
                  </Text>
                  <Badge size="1" variant="soft" color={ROLE_COLORS[p.role]}>
                    {ROLE_LABELS[p.role]}
                  </Badge>
                  {p.steps.length > 0 && (
                    <Text size="1" color="gray">
                      {p.steps.length} step{p.steps.length === 1 ? "" : "s"}
                    </Text>
                  )}
                  <Flex gap="1" ml="auto">
                    <IconButton
                      size="1"
                      variant="ghost"
                      aria-label={`Edit ${p.path}`}
                      disabled={!editable}
                      onClick={() => setOpen({ kind: "edit", page: p })}
                    >
                      <Pencil1Icon />
                    </IconButton>
                    <Tooltip content={p.role === "home" ? "The home page stays while the site does" : `Delete ${p.path}`}>
                      <IconButton
                        size="1"
                        variant="ghost"
                        color="red"
                        aria-label={`Delete ${p.path}`}
                        disabled={!editable || p.role === "home"}
                        onClick={() => void remove(p)}
                      >
                        <TrashIcon />
                      </IconButton>
                    </Tooltip>
                  </Flex>
                </Flex>
              </li>
            ))}
          </ul>
        </Flex>
      )}
      {open?.kind === "edit" && (
        <PageEditor targetId={target.id} siteUrl={target.url} page={open.page} onClose={() => setOpen(null)} onSaved={saved} />
      )}
      {open?.kind === "discover" && (
        <DiscoveryPicker
          targetId={target.id}
          label={target.label}
          existing={pages ?? []}
          onClose={() => setOpen(null)}
          onAdded={(added) => {
            setPages((list) => ordered([...(list ?? []), ...added]));
            toast({ title: "Pages Added", description: `${added.length} page${added.length === 1 ? "" : "s"} added to ${target.label}.` });
          }}
        />
      )}
      {open?.kind === "secrets" && <SecretsPanel targetId={target.id} label={target.label} onClose={() => setOpen(null)} />}
    </Flex>
  );
}
