/* posebench.h — umbrella header: include this to use the library. */
#ifndef POSEBENCH_H
#define POSEBENCH_H
#include "posebench/version.h"   /* generated: in the build tree or the install prefix */
#include "status.h"
#include "pose.h"
#include "ops.h"
#include "skeleton.h"
#include "palette.h"
#include "skin.h"
#include "clip.h"
#include "bvh.h"
#include "builders.h"
#include "curve.h"
#include "frame.h"
#include "pool.h"
#include "mm.h"
#include "frame_mm.h"
#include "bspace.h"
#include "blend_n.h"
#include "graph.h"
#include "asset.h"
#include "quality.h"
#endif
