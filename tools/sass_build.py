"""sass_build.py: a kernel file's SASS without a GPU, for the tools that read it
(sass_loops.py, check_meta_regs.py): the file compiled to a cubin as the library builds its
device code (nvcc -O3 -DNDEBUG, the library's include paths), disassembled by nvdisasm.
nvdisasm is not in every CUDA install; `pip install nvidia-cuda-nvdisasm` puts one under
site-packages/nvidia/cu13/bin/, where find_nvdisasm looks."""
import os
import shutil
import site
import subprocess
import sys
import tempfile


def find_nvdisasm(given=None):
    """nvdisasm: given, on PATH, in CUDA's bin, or in a pip package's bin; None if none."""
    if given:
        return given
    candidates = [shutil.which("nvdisasm")]
    for root in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if root:
            candidates.append(os.path.join(root, "bin", "nvdisasm"))
    for packages in site.getsitepackages() + [site.getusersitepackages()]:
        for sub in ("cu13", "cu12", "cuda_nvdisasm"):
            candidates.append(os.path.join(packages, "nvidia", sub, "bin", "nvdisasm"))
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def cubin_sass(source, arch, nvdisasm, nvcc="nvcc"):
    """(nvdisasm -c of source compiled for arch, nvcc's messages); exits on a failed build."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "k.cubin")
        build = subprocess.run([nvcc, "-O3", "-DNDEBUG", "-std=c++17", "-arch=" + arch, "-cubin",
                                "-I" + os.path.join(root, "include"),
                                "-I" + os.path.join(root, "src"), source, "-o", cubin],
                               capture_output=True, text=True)
        if build.returncode != 0:
            sys.exit(build.stderr)
        sass = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True,
                              check=True).stdout
    return sass, build.stderr
