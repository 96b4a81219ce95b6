import { Button, Callout, Dialog, Flex, Heading, SegmentedControl, Text, TextField } from "@radix-ui/themes";
import { CopyIcon, ExclamationTriangleIcon, Link2Icon, Share1Icon } from "@radix-ui/react-icons";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { CloseFooter } from "#web/components/ui/close-footer";
import { DisabledReason } from "#web/components/ui/disabled-reason";
import { useCanEdit } from "#web/lib/workspace";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { copyText } from "#web/lib/clipboard";
import { type CreatedShare, createShare, listShares, revokeShare, type ShareView } from "../api";
import { EXPIRY_CHOICES, type ExpiryChoice, expiresAt } from "../expiry";
import { formatDateTime } from "#web/lib/format";
import { ShareList } from "./share-list";

interface Props {
  comparisonId: string;
}

/**
 * The results screen's Share control: make a read-only link to the latest completed run (with an
 * optional expiry), copy it (shown once: only its hash is stored), and see and revoke the links made.
 */
export function ShareDialog({ comparisonId }: Props) {
  const [open, setOpen] = useState(false);
  const [expiry, setExpiry] = useState<ExpiryChoice>("7");
  const [links, setLinks] = useState<ShareView[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [fresh, setFresh] = useState<CreatedShare | null>(null);
  const [createError, setCreateError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<string | null>(null);
  const { canEdit, reason } = useCanEdit();

  const reload = useCallback(async () => {
    try {
      setLinks(await listShares(comparisonId));
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
    }
  }, [comparisonId]);

  useEffect(() => {
    if (open) void reload();
  }, [open, reload]);

  function onOpenChange(next: boolean) {
    setOpen(next);
    // A link is shown once: closing the dialog lets it go.
    if (!next) {
      setFresh(null);
      setCreateError(null);
    }
  }

  async function create(e: FormEvent) {
    e.preventDefault();
    setCreating(true);
    setCreateError(null);
    try {
      setFresh(await createShare(comparisonId, { expiresAt: expiresAt(expiry, Date.now()) }));
      await reload();
    } catch (err) {
      setCreateError(errorMessage(err, "Unable to create a link. Please try again."));
    } finally {
      setCreating(false);
    }
  }

  async function copy(url: string) {
    if (await copyText(url)) toast({ title: "Link Copied", description: "The share link is on your clipboard." });
    else toast({ title: "Copy Failed", description: "Select the link and copy it by hand.", variant: "destructive" });
  }

  async function revoke(link: ShareView) {
    setRevoking(link.id);
    try {
      await revokeShare(link.id);
      toast({ title: "Link Revoked", description: "It no longer opens anything." });
      await reload();
    } catch (err) {
      toast({ title: "Revoke Failed", description: errorMessage(err, "Unable to revoke the link."), variant: "destructive" });
    } finally {
      setRevoking(null);
    }
  }

  // Share links are an editor's to make and revoke; a viewer's button is off and says why.
  if (!canEdit)
    return (
      <DisabledReason reason={reason}>
        <Button variant="soft" disabled>
          <Share1Icon aria-hidden /> Share
        </Button>
      </DisabledReason>
    );

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger>
        <Button variant="soft">
          <Share1Icon aria-hidden /> Share
        </Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="760px">
        <Dialog.Title>Share results</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="4">
          Anyone with a link sees the latest completed run's results, read-only and without signing in, and nothing else of yours. Revoke a
          link to end it at once.
        </Dialog.Description>

        <form onSubmit={create} aria-label="Create a share link">
          <Flex gap="3" align="end" wrap="wrap" mb="3">
            <Flex direction="column" gap="1">
              <Text as="div" size="2" weight="medium" id="share-expiry-label">
                Link expires after
              </Text>
              <SegmentedControl.Root
                size={{ initial: "1", sm: "2" }}
                value={expiry}
                onValueChange={(v) => setExpiry(v as ExpiryChoice)}
                aria-labelledby="share-expiry-label"
              >
                {EXPIRY_CHOICES.map((c) => (
                  <SegmentedControl.Item key={c.value} value={c.value}>
                    {c.label}
                  </SegmentedControl.Item>
                ))}
              </SegmentedControl.Root>
            </Flex>
            <Button type="submit" loading={creating}>
              <Link2Icon aria-hidden /> Create link
            </Button>
          </Flex>
        </form>

        {createError && (
          <Callout.Root color="red" mb="3" role="alert">
            <Callout.Icon>
              <ExclamationTriangleIcon />
            </Callout.Icon>
            <Callout.Text>{createError}</Callout.Text>
          </Callout.Root>
        )}

        {fresh && (
          <Callout.Root color="green" highContrast mb="3" data-testid="new-share-link">
            <Callout.Text>
              Copy this link now: it is stored hashed and won't be shown again.{" "}
              {fresh.expiresAt ? `It works until ${formatDateTime(fresh.expiresAt)}.` : "It works until you revoke it."}
            </Callout.Text>
            <Flex gap="2" align="center" wrap="wrap" style={{ minWidth: 0 }}>
              <TextField.Root
                readOnly
                value={fresh.url}
                aria-label="Share link"
                onFocus={(e) => e.currentTarget.select()}
                style={{ flex: "1 1 220px", minWidth: 0 }}
              />
              <Button variant="soft" highContrast onClick={() => void copy(fresh.url)}>
                <CopyIcon aria-hidden /> Copy link
              </Button>
            </Flex>
          </Callout.Root>
        )}

        <Heading as="h3" size="3" mb="2">
          Links
        </Heading>
        {loadFailed ? (
          <Text color="red" size="2" role="alert">
            Could not load the links.
          </Text>
        ) : !links ? (
          <Text color="gray" size="2">
            Loading links…
          </Text>
        ) : links.length === 0 ? (
          <Text color="gray" size="2">
            No links yet.
          </Text>
        ) : (
          <ShareList links={links} now={Date.now()} revoking={revoking} onRevoke={(l) => void revoke(l)} />
        )}

        <CloseFooter />
      </Dialog.Content>
    </Dialog.Root>
  );
}
