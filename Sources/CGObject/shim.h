// GLib's object system, linked as usual (the imaging engine's objects are GObjects; starting
// it costs about 2 ms). The module exists for pkg-config's include paths and these two
// libraries; the declarations come through CVips, which includes libvips' headers. libvips
// itself is not linked: CVips opens it with dlopen when an image is first worked on.
