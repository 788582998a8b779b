from setuptools import setup, Extension

setup(
    name="fastcond",
    version="0.1.0",
    description="Native threading.Condition (pthread mutex + POSIX semaphores)",
    ext_modules=[
        Extension(
            "fastcond",
            sources=["src/fastcond.c"],
            depends=["src/emucond.h"],  # so that a change to the header alone rebuilds
            extra_compile_args=["-O2", "-Wall", "-Wno-missing-field-initializers"],
            libraries=["pthread"],
        )
    ],
    python_requires=">=3.6",
)
