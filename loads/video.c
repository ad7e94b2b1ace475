// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/video.c - the "Video" load: the Video simulator running in the
 * background, as a video player would next to the benchmarked task.
 */
#include "loads/loads.h"
#include "core/load.h"

static int video_run(struct load_ctx *c)
{
	return load_run_sim(c);
}

const struct load_desc load_video = {
	.name = "Video",
	.summary = "the Video simulator in the background",
	.sim = &sim_video,
	.run = video_run,
};
