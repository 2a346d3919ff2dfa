console.log("build");
