import { z } from "zod";
import { viewportSchema } from "#server/modules/capture/model";

export const filmstripFrameDto = z.object({
  /** Time after navigation start, on the same axis as the snapshot's FCP and LCP. */
  ms: z.number(),
  url: z.string(),
});

export const filmstripDto = z.object({
  snapshotId: z.string(),
  targetId: z.string(),
  viewport: viewportSchema,
  /** The viewport the frames show, in CSS px (for the frames' aspect ratio). */
  width: z.number(),
  height: z.number(),
  frames: z.array(filmstripFrameDto),
});
export type FilmstripDto = z.infer<typeof filmstripDto>;

export const frameParams = z.object({
  id: z.string(),
  frame: z.coerce
    .number({ error: "frame must be a number" })
    .int("frame must be a whole number")
    .min(0, "frame starts at 0")
    .max(999, "no such frame"),
});
