"""backend="vulkan": the same images as the CPU backend, from pcv.render and pcv.Renderer.
Runs on any Vulkan device (lavapipe included); skipped, with the reason, without one."""

import numpy as np
import pytest

import pcv


def points(count=20000, seed=5):
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=(count, 3))


def vulkan_renderer(size):
    try:
        return pcv.Renderer(size=size, backend="vulkan")
    except pcv.UnavailableError as error:
        pytest.skip(str(error))


def test_render_draws_the_cpu_backends_pixels():
    vulkan_renderer((96, 64))  # skips without a device
    for quality in ({}, {"point_size": 3, "edl": "on"}):
        vulkan = pcv.render(points(), size=(160, 90), backend="vulkan", **quality)
        cpu = pcv.render(points(), size=(160, 90), backend="cpu", **quality)
        assert vulkan.shape == cpu.shape
        assert np.array_equal(vulkan, cpu), quality
        assert np.any(cpu[:, :, :3] != 0)


def test_a_renderer_names_its_backend():
    renderer = vulkan_renderer((96, 64))
    assert renderer.backend == "vulkan"
    renderer.add(points())
    assert renderer.point_count == 20000
