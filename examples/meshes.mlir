// Meshes written the Shardy way, converted to `mesh` dialect meshes:
//   mesh-opt examples/meshes.mlir --convert-sdy-to-mesh
sdy.mesh @mesh_data_4_model_2 = <["data"=4, "model"=2]>
sdy.mesh @mesh_x_8 = <["x"=8]>
mesh.mesh @mesh_dynamic(shape = 2x?)
